// The real SDK clients, with their default (real) base URLs, under the guard. The safety net
// stands in for the network under it: nothing here can leave the machine.
import Anthropic from '@anthropic-ai/sdk'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { REAL_MODEL_CALL } from '../../src/guard/real-model-call.js'
import { installSafetyNet, useDefaultBaseUrls, type SafetyNet } from './helpers.js'

let net: SafetyNet
let restoreEnv: () => void
let uninstall: () => void
const messages = [{ role: 'user' as const, content: 'hi' }]

beforeEach(() => {
  restoreEnv = useDefaultBaseUrls()
  net = installSafetyNet()
})
afterEach(async () => {
  uninstall?.()
  await net.restore()
  restoreEnv()
  delete process.env.AGENT_DOUBLES_ALLOW_REAL
})

/** The guard error under an SDK's connection error: SDK error → `fetch failed` → guard error. */
const guardErrorUnder = (error: unknown) => ((error as Error).cause as Error | undefined)?.cause as (Error & { code?: string }) | undefined

test('openai with its default base URL fails with the guard error under its connection error, nothing sent', async () => {
  uninstall = installNetworkGuard()
  const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 })
  const error = await client.chat.completions.create({ model: 'gpt-5', messages }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(OpenAI.APIConnectionError)
  const cause = guardErrorUnder(error)
  expect(cause?.code).toBe(REAL_MODEL_CALL)
  expect(cause?.message).toContain('A real model was called: POST https://api.openai.com/v1/chat/completions')
  expect(net.calls).toEqual([])
})

test('@anthropic-ai/sdk with its default base URL fails the same way', async () => {
  uninstall = installNetworkGuard()
  const client = new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 })
  const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(Anthropic.APIConnectionError)
  expect(guardErrorUnder(error)).toMatchObject({ code: REAL_MODEL_CALL, method: 'POST', url: 'https://api.anthropic.com/v1/messages' })
  expect(net.calls).toEqual([])
})

test('the AI SDK providers put the guard message in their own', async () => {
  uninstall = installNetworkGuard()
  const openai = createOpenAI({ apiKey: 'sk-test' })
  await expect(generateText({ model: openai('gpt-5'), prompt: 'hi', maxRetries: 0 })).rejects.toThrow(
    'A real model was called: POST https://api.openai.com/v1/responses',
  )
  const anthropic = createAnthropic({ apiKey: 'sk-ant-test' })
  const error = await generateText({ model: anthropic('claude-sonnet-4-6'), prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e)
  expect((error as Error).message).toContain('A real model was called: POST https://api.anthropic.com/v1/messages')
  expect(net.calls).toEqual([])
})

test('AGENT_DOUBLES_ALLOW_REAL=1 lets the client through to the network', async () => {
  uninstall = installNetworkGuard()
  process.env.AGENT_DOUBLES_ALLOW_REAL = '1'
  const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 })
  // The safety net rejects the call: it reached the network, and went no further.
  await expect(client.models.list()).rejects.toThrow(OpenAI.APIConnectionError)
  expect(net.calls).toEqual(['GET https://api.openai.com/v1/models'])
})

test('a client built under one install is guarded by the next one too', async () => {
  const first = installNetworkGuard()
  const client = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 })
  first()
  uninstall = installNetworkGuard()
  await expect(client.models.list()).rejects.toMatchObject({ cause: { cause: { code: REAL_MODEL_CALL } } })
  expect(net.calls).toEqual([])
})
