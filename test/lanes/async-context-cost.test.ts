// SPEC §9, §16: a test run alone is found as the only running test, without an async-context
// store (on Node 20 the first store turns on promise hooks that tax every later promise); a
// concurrent test gets a store, and a test that follows one replaces the finished test's store.
import type { AsyncLocalStorage } from 'node:async_hooks'
import OpenAI from 'openai'
import { describe } from 'vitest'
import { expect, test } from '../../fixtures/vitest.js'
import { withDefaultBaseUrls } from '../guard/helpers.js'

const currentLane = (globalThis as unknown as Record<symbol, AsyncLocalStorage<{ lane: { url: string }; ended: boolean }>>)[
  Symbol.for('agent-doubles.current-lane')
]!

async function askDefaultHost(): Promise<string> {
  const client = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
  const answer = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
  return answer.choices[0]?.message.content ?? ''
}

test('a test run alone takes no store, and default-host and env-built clients still reach its lane', async ({ fakeProxy, scriptedLLM }) => {
  expect(currentLane.getStore()).toBeUndefined()
  fakeProxy.use(scriptedLLM(['via the default host', 'via the environment']))
  expect(await askDefaultHost()).toBe('via the default host')
  const viaEnv = await new OpenAI({ maxRetries: 0 }).chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
  expect(viaEnv.choices[0]?.message.content).toBe('via the environment')
  expect(fakeProxy).toHaveReceivedRequests(2)
})

describe.concurrent('tests that may run at once', () => {
  for (const index of [0, 1]) {
    test(`each holds its own lane in its async context (${index})`, async ({ fakeProxy, scriptedLLM }) => {
      expect(currentLane.getStore()).toMatchObject({ lane: { url: fakeProxy.url }, ended: false })
      fakeProxy.use(scriptedLLM([`concurrent ${index}`]))
      expect(await askDefaultHost()).toBe(`concurrent ${index}`)
    })
  }
})

test('a test after concurrent ones replaces the finished test\'s store with its own', async ({ fakeProxy, scriptedLLM }) => {
  // Whether a concurrent test's store flows on into Vitest's setup of this test depends on which
  // promise woke the runner (it differs between a file run alone and one in a shared worker):
  // what must hold is that a store, when there is one, is this test's and not a finished one's.
  const store = currentLane.getStore()
  expect(store === undefined ? 'no store' : { url: store.lane.url, ended: store.ended }).toEqual(
    store === undefined ? 'no store' : { url: fakeProxy.url, ended: false },
  )
  fakeProxy.use(scriptedLLM(['after the concurrent block']))
  expect(await askDefaultHost()).toBe('after the concurrent block')
  expect(fakeProxy).toHaveReceivedRequests(1)
})
