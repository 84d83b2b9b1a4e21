// @vitest-environment edge-runtime
/**
 * The set-up a user writes for an edge-runtime test: Vitest's `edge-runtime` environment, a
 * FakeProxy that is never started, and the real openai SDK through `proxy.fetch`, streamed. (That
 * environment keeps Node's `Buffer` and modules around; edge-runtime.test.ts runs the same calls
 * where they are truly missing.)
 */
import OpenAI from 'openai'
import { expect, test } from 'vitest'
import { FakeProxy, scriptedLLM } from '../../src/in-process.js'
import '../matchers/setup-expect.js'

test('the openai SDK streams through proxy.fetch in the edge-runtime environment', async () => {
  expect(typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime).toBe('string')
  const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi from the edge' }) })
  const openai = new OpenAI({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch, maxRetries: 0 })
  const stream = await openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello' }], stream: true })
  let text = ''
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
  expect(text).toBe('hi from the edge')
  expect(proxy).toHaveReceivedRequest({ dialect: 'openai-chat', stream: true })
  expect(proxy.requests[0].headers['x-stainless-runtime']).toBe('edge')
})
