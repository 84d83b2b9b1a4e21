// toHaveUsedAtMost on real doubles: a FakeProxy the OpenAI and Anthropic SDKs talked to, a
// ScriptedLLM under the AI SDK, and a MockAgent pipeline whose envelopes roll up.
import Anthropic from '@anthropic-ai/sdk'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { afterEach, expect, test } from 'vitest'
import { configure, Envelope, FakeProxy, mockAgent, scriptedLLM } from '../../src/index.js'
import { failureOf, plain } from '../matchers/setup-expect.js'

let restore: (() => void) | undefined
afterEach(() => {
  restore?.()
  restore = undefined
})

test('a FakeProxy: requests, tokens and cost per model across two SDKs', async () => {
  await using proxy = await new FakeProxy().start()
  proxy.use(scriptedLLM({ hello: { text: 'hi', usage: { inputTokens: 1000, outputTokens: 200 } } }))
  const openai = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const anthropic = new Anthropic({ apiKey: 'test', baseURL: proxy.url, maxRetries: 0 })
  const chat = await openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello' }] })
  await openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello again' }] })
  await anthropic.messages.create({ model: 'claude-sonnet', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] })
  expect(chat.usage).toMatchObject({ prompt_tokens: 1000, completion_tokens: 200 })

  restore = configure({ prices: { 'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 }, 'claude-sonnet': { inputPerMTok: 3, outputPerMTok: 15 } } })
  // gpt-5: 2 × (1000 × 1.25 + 200 × 10) / 1e6 = 0.0065; claude: (3000 + 3000) / 1e6 = 0.006.
  expect(proxy).toHaveUsedAtMost({ requests: 3, inputTokens: 3000, outputTokens: 600, costUsd: 0.0125 })
  const message = plain(failureOf(() => expect(proxy).toHaveUsedAtMost({ costUsd: 0.01 })))
  expect(message).toContain('  costUsd: $0.0125 (limit $0.01, over by $0.0025)')
  expect(message).toContain('  gpt-5: 2 requests, 2000 input + 400 output = 2400 tokens, $0.0065')
  expect(message).toContain('  claude-sonnet: 1 request, 1000 input + 200 output = 1200 tokens, $0.006')
})

test('a ScriptedLLM under the AI SDK, with estimated usage', async () => {
  const llm = scriptedLLM(['A short answer.'], { usage: { inputTokens: 40, outputTokens: 8 } })
  await generateText({ model: llm.languageModel('small-model'), prompt: 'Question?' })
  expect(llm).toHaveUsedAtMost({ requests: 1, totalTokens: 48 })
  expect(llm).not.toHaveUsedAtMost({ totalTokens: 47 })
  expect(() => expect(llm).toHaveUsedAtMost({ costUsd: 1 })).toThrow(/no price for model "small-model"/)
})

test('a MockAgent orchestrator: its calls and its envelopes’ totals, nested included', async () => {
  const researcher = mockAgent({ '*': 'facts' }, { name: 'researcher', inputTokens: 100, outputTokens: 50, costUsd: 0.002 })
  const orchestrator = mockAgent(
    async (input: Envelope) => {
      const child = await researcher(input)
      return Envelope.rollUp(new Envelope({ task: input.task, payload: child.text(), metadata: { inputTokens: 10, outputTokens: 5, costUsd: 0.001, model: 'planner' } }), [child])
    },
    { name: 'orchestrator' },
  )
  await orchestrator('topic a')
  await orchestrator('topic b')
  expect(orchestrator).toHaveUsedAtMost({ requests: 2, inputTokens: 220, outputTokens: 110, costUsd: 0.006 })
  expect(orchestrator).not.toHaveUsedAtMost({ costUsd: 0.005 })
  expect(researcher).toHaveUsedAtMost({ requests: 2, totalTokens: 300 })
})
