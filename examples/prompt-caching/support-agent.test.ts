import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { expect } from 'vitest'
import { test } from 'agent-doubles/vitest'
import { answerWithClaude, answerWithOpenAI } from './support-agent.js'

const questions = ['Can I return shoes?', 'And a jacket?', 'What do you need from me?']

test('a timestamp in the system prompt defeats the prompt cache: the failure points at it', async ({ fakeProxy }) => {
  await answerWithClaude(new Anthropic({ apiKey: 'test', baseURL: fakeProxy.url }), questions, { withClock: true })
  // Every turn after the first missed, and the message shows where the prompt changed: the time.
  const failure = messageOf(() => expect(fakeProxy).toHaveHitPromptCache())
  expect(failure).toMatch(/2nd request read 0 of \d+ input tokens \(0%\): the prompt differs from the cached prefix at system\[0\], character \d+:/)
  expect(failure).toMatch(/cached: "Current time: \d{4}-\d\d-\d\dT[\d:.]+Z\\nPolicy 1: .*\n\s+now: {4}"Current time: \d{4}-/)
  expect(failure).toMatch(/3rd request read 0 of/)
})

test('without the clock, every turn after the first reads the handbook from the cache', async ({ fakeProxy }) => {
  const anthropic = new Anthropic({ apiKey: 'test', baseURL: fakeProxy.url })
  await answerWithClaude(anthropic, questions, { withClock: false })
  expect(fakeProxy).toHaveHitPromptCache({ minReadRatio: 0.9 })
  // Reads cost a tenth of the input price, writes 125 %: about $0.0105 at the built-in Sonnet 4.5
  // prices, where the same three turns uncached cost $0.021.
  expect(fakeProxy).toHaveUsedAtMost({ costUsd: 0.011 })
  const { requests, total } = fakeProxy.usage()
  expect(requests.map((request) => request.cacheReadTokens)).toEqual([0, requests[0]!.cacheWriteTokens, requests[0]!.cacheWriteTokens])
  expect(total.cacheReadTokens).toBeGreaterThan(2 * 1024)
})

test('OpenAI caches automatically: the same mistake, the same diagnosis, the same fix', async ({ fakeProxy }) => {
  const openai = new OpenAI({ apiKey: 'test', baseURL: `${fakeProxy.url}/v1` })
  await answerWithOpenAI(openai, questions, { withClock: false })
  expect(fakeProxy).toHaveHitPromptCache()
})

/** The failure message of `assertion`, without colours. */
function messageOf(assertion: () => void): string {
  try {
    assertion()
  } catch (error) {
    return (error as Error).message.replace(/\u001b\[[0-9;]*m/g, '')
  }
  throw new Error('the assertion passed')
}
