// How the fakeProxy fixture attaches a failed test's conversation (fixtures/failure-context.ts),
// given the test context Vitest hands an onTestFailed handler: through `annotate` while the
// test's state reads "run", else to stderr; never for a `fails` test or a lane that saw nothing.
// failure-context.test.ts checks the real thing in child Vitest 4 and 5 runs.
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { FakeProxy, scriptedLLM } from '../../src/index.js'
import { attachFailureContext, type FailedTestContext } from '../../fixtures/failure-context.js'

let proxy: FakeProxy
beforeAll(async () => {
  proxy = await new FakeProxy().start()
})
afterAll(() => proxy.close())

/** A lane that answered one chat call made through the real OpenAI SDK. */
async function laneAfterOneCall(name: string) {
  const lane = proxy.lane(name)
  lane.use(scriptedLLM(['Booked Paris.']))
  const client = new OpenAI({ apiKey: 'k', baseURL: `${lane.url}/v1`, maxRetries: 0 })
  await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: `Book Paris on ${new Date().toISOString()}` }] })
  return lane
}

const expected = ['the conversation fakeProxy saw:', '  #1 POST /v1/chat/completions · openai-chat · model "gpt-5"', '    user: Book Paris on <date>', '    reply: Booked Paris.'].join('\n')

test('annotates the failed test with the masked conversation, seeing state "run" only during the call', async () => {
  await using lane = await laneAfterOneCall('annotated')
  const seenStates: string[] = []
  const annotations: Array<[string, string | undefined]> = []
  const context: FailedTestContext = {
    task: { name: 'books', result: { state: 'fail' } },
    annotate: async (message, type) => {
      seenStates.push(context.task.result!.state)
      annotations.push([message, type])
    },
  }
  const stderr = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await attachFailureContext(context, lane)
    expect(annotations).toEqual([[expected, 'agent-doubles: conversation']])
    expect(seenStates).toEqual(['run'])
    expect(context.task.result!.state).toBe('fail')
    expect(stderr).not.toHaveBeenCalled()
  } finally {
    stderr.mockRestore()
  }
})

test.each([
  ['has no annotate', undefined],
  ['refuses the annotation', () => Promise.reject(new Error('Test runner doesn\u2019t support test annotations.'))],
  [
    'throws at the call',
    () => {
      throw new Error('Cannot annotate tests outside of the test run.')
    },
  ],
])('prints the conversation to stderr when Vitest %s', async (_, annotate) => {
  await using lane = await laneAfterOneCall('fallback')
  const context: FailedTestContext = { task: { name: 'books', result: { state: 'fail' } }, annotate }
  const stderr = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await attachFailureContext(context, lane)
    const body = expected.split('\n').slice(1).join('\n')
    expect(stderr.mock.calls).toEqual([[`[agent-doubles] the conversation fakeProxy saw in "books":\n${body}`]])
    expect(context.task.result!.state).toBe('fail')
  } finally {
    stderr.mockRestore()
  }
})

test('attaches nothing for a test marked `fails`, or when the lane saw no request', async () => {
  await using lane = await laneAfterOneCall('quiet')
  await using idle = proxy.lane('idle')
  const annotate = vi.fn(async () => {})
  const stderr = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await attachFailureContext({ task: { name: 'expected to fail', fails: true, result: { state: 'fail' } }, annotate }, lane)
    await attachFailureContext({ task: { name: 'idle', result: { state: 'fail' } }, annotate }, idle)
    expect(annotate).not.toHaveBeenCalled()
    expect(stderr).not.toHaveBeenCalled()
  } finally {
    stderr.mockRestore()
  }
})
