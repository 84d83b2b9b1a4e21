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

/** A lane that answered two chat calls made through the real OpenAI SDK, then refused two. */
async function laneAfterTwoCalls(name: string) {
  const lane = proxy.lane(name)
  lane.use(scriptedLLM(['Booked Paris.', 'Booked Oslo.']))
  const client = new OpenAI({ apiKey: 'k', baseURL: `${lane.url}/v1`, maxRetries: 0 })
  for (const city of ['Paris', 'Oslo']) {
    await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: `Book ${city} on ${new Date().toISOString()}` }] })
  }
  for (let i = 0; i < 2; i++) {
    lane.refuse('rate_limited')
    await expect(client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'again' }] })).rejects.toThrow()
  }
  return lane
}

const header = '#1 POST /v1/chat/completions · openai-chat · model "gpt-5"'
const refused = (n: number) => `refused #${n}: rate_limited (429) POST /v1/chat/completions · openai-chat · model "gpt-5"`
/** The whole conversation as rendered. */
const whole = [header, '  user: Book Paris on <date>', '  reply: Booked Paris.', header.replace('#1', '#2'), '  user: Book Oslo on <date>', '  reply: Booked Oslo.', refused(1), refused(2)]
/** One annotation per turn, the turn's lines indented under its header; the refusals together. */
const expectedTurns = [
  [header, '     user: Book Paris on <date>', '     reply: Booked Paris.'].join('\n'),
  [header.replace('#1', '#2'), '     user: Book Oslo on <date>', '     reply: Booked Oslo.'].join('\n'),
  [refused(1), `   ${refused(2)}`].join('\n'),
]

test('annotates the failed test with the masked conversation, seeing state "run" only during the call', async () => {
  await using lane = await laneAfterTwoCalls('annotated')
  const seenStates: string[] = []
  const annotations: Array<[string, string | undefined]> = []
  const context: FailedTestContext = {
    task: { name: 'books', result: { state: 'fail' }, meta: {} },
    annotate: async (message, type) => {
      seenStates.push(context.task.result!.state)
      annotations.push([message, type])
    },
  }
  const stderr = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await attachFailureContext(context, lane)
    expect(annotations).toEqual(expectedTurns.map((turn) => [turn, 'agent-doubles: conversation']))
    expect(seenStates).toEqual(['run', 'run', 'run'])
    expect(context.task.meta).toEqual({ agentDoublesConversation: whole.join('\n') })
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
  await using lane = await laneAfterTwoCalls('fallback')
  const context: FailedTestContext = { task: { name: 'books', result: { state: 'fail' } }, annotate }
  const stderr = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await attachFailureContext(context, lane)
    expect(stderr.mock.calls).toEqual([[`[agent-doubles] the conversation fakeProxy saw in "books":\n${whole.map((line) => `  ${line}`).join('\n')}`]])
    expect(context.task.result!.state).toBe('fail')
  } finally {
    stderr.mockRestore()
  }
})

test('attaches nothing for a test marked `fails`, or when the lane saw no request', async () => {
  await using lane = await laneAfterTwoCalls('quiet')
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

test('a conversation that cannot be rendered is reported in one line, and the teardown goes on', async () => {
  const broken = {
    get requests(): never {
      throw new Error('records gone')
    },
    refusals: [],
  }
  const annotate = vi.fn(async () => {})
  const stderr = vi.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await expect(attachFailureContext({ task: { name: 'books', result: { state: 'fail' } }, annotate }, broken)).resolves.toBeUndefined()
    expect(annotate).not.toHaveBeenCalled()
    expect(stderr.mock.calls).toEqual([['[agent-doubles] could not render the conversation fakeProxy saw in "books": records gone']])
  } finally {
    stderr.mockRestore()
  }
})
