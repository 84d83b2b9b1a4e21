/**
 * Token limits over the model's maximum output (SPEC §20's model table): each provider's own 400,
 * worded as its API words it, through the real clients; recorded as a rejected request. Ollama
 * caps `num_predict` rather than refusing it; unknown models have no limit; `configure({ models })`
 * changes the maximum.
 */
import Anthropic from '@anthropic-ai/sdk'
import { BedrockRuntimeClient, ConverseCommand, InvokeModelCommand, ValidationException } from '@aws-sdk/client-bedrock-runtime'
import { ApiError, GoogleGenAI } from '@google/genai'
import { Ollama } from 'ollama'
import OpenAI from 'openai'
import { afterEach, describe, expect, onTestFinished, test } from 'vitest'
import { configure } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { anthropicFor, openaiFor, startProxy } from '../proxy/helpers.js'

let restore: (() => void) | undefined
afterEach(() => {
  restore?.()
  restore = undefined
})

function bedrockFor(proxy: FakeProxy): BedrockRuntimeClient {
  const client = new BedrockRuntimeClient({ endpoint: proxy.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1 })
  onTestFinished(() => client.destroy())
  return client
}

const user = [{ role: 'user' as const, content: 'hi' }]

describe('a token limit over the model’s maximum output gets the provider’s own 400', () => {
  test('OpenAI Chat: max_tokens and max_completion_tokens, code invalid_value, param the field sent', async () => {
    const proxy = await startProxy()
    const openai = openaiFor(proxy)
    const legacy = await openai.chat.completions.create({ model: 'gpt-4o', messages: user, max_tokens: 20_000 }).catch((e: unknown) => e)
    expect(legacy).toBeInstanceOf(OpenAI.BadRequestError)
    expect(legacy).toMatchObject({ status: 400, code: 'invalid_value', param: 'max_tokens', type: 'invalid_request_error' })
    expect((legacy as Error).message).toContain('max_tokens is too large: 20000. This model supports at most 16384 completion tokens, whereas you provided 20000.')
    const current = await openai.chat.completions.create({ model: 'gpt-4o-2024-08-06', messages: user, max_completion_tokens: 16_385 }).catch((e: unknown) => e)
    expect(current).toMatchObject({ status: 400, code: 'invalid_value', param: 'max_completion_tokens' })
    // At the maximum it is answered.
    await expect(openai.chat.completions.create({ model: 'gpt-4o', messages: user, max_tokens: 16_384 })).resolves.toMatchObject({ object: 'chat.completion' })
    expect(proxy.requests.map((request) => request.error?.code)).toEqual(['invalid_value', 'invalid_value', undefined])
    expect(proxy.requests[0].error).toMatchObject({ code: 'invalid_value', param: 'max_tokens' })
  })

  test('OpenAI Responses: max_output_tokens', async () => {
    const proxy = await startProxy()
    const error = await openaiFor(proxy).responses.create({ model: 'gpt-4.1', input: 'hi', max_output_tokens: 40_000 }).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 400, code: 'invalid_value', param: 'max_output_tokens' })
    expect((error as Error).message).toContain('max_output_tokens is too large: 40000. This model supports at most 32768')
  })

  test('Anthropic: "max_tokens: N > M, which is the maximum allowed number of output tokens for <model>", with request_id', async () => {
    const proxy = await startProxy()
    const error = await anthropicFor(proxy).messages.create({ model: 'claude-3-5-haiku-20241022', max_tokens: 9000, messages: user }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Anthropic.BadRequestError)
    const body = (error as { error?: { request_id?: unknown } }).error
    expect(body).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'max_tokens: 9000 > 8192, which is the maximum allowed number of output tokens for claude-3-5-haiku-20241022' },
    })
    expect(body?.request_id).toMatch(/^req_/)
  })

  test('Gemini: 400 INVALID_ARGUMENT with the supported range, its end exclusive', async () => {
    const proxy = await startProxy()
    const genai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: proxy.url } })
    const error = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { maxOutputTokens: 70_000 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400 })
    expect((error as Error).message).toContain('INVALID_ARGUMENT')
    expect((error as Error).message).toContain('maxOutputTokens value of 70000 but the supported range is from 1 (inclusive) to 65537 (exclusive)')
  })

  test('Bedrock: Converse inferenceConfig.maxTokens and InvokeModel max_tokens → ValidationException', async () => {
    const proxy = await startProxy()
    const client = bedrockFor(proxy)
    const converse = await client
      .send(new ConverseCommand({ modelId: 'amazon.nova-pro-v1:0', messages: [{ role: 'user', content: [{ text: 'hi' }] }], inferenceConfig: { maxTokens: 10_001 } }))
      .catch((e: unknown) => e)
    expect(converse).toBeInstanceOf(ValidationException)
    expect((converse as Error).message).toBe('The maximum tokens you requested exceeds the model limit of 10000. Try again with a maximum tokens value that is lower than 10000.')
    const modelId = 'us.anthropic.claude-3-5-haiku-20241022-v1:0'
    const body = new TextEncoder().encode(JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 9000, messages: user }))
    const invoke = await client.send(new InvokeModelCommand({ modelId, body, contentType: 'application/json' })).catch((e: unknown) => e)
    expect(invoke).toBeInstanceOf(ValidationException)
    expect((invoke as Error).message).toBe(`max_tokens: 9000 > 8192, which is the maximum allowed number of output tokens for ${modelId}`)
  })

  test('Ollama caps num_predict instead of refusing it; unknown models have no maximum; configure({ models }) sets one', async () => {
    const proxy = await startProxy()
    const ollama = new Ollama({ host: proxy.url })
    await expect(ollama.chat({ model: 'llama3.2', messages: user, options: { num_predict: 10_000_000 } })).resolves.toMatchObject({ done: true })
    await expect(openaiFor(proxy).chat.completions.create({ model: 'my-finetune', messages: user, max_tokens: 10_000_000 })).resolves.toMatchObject({ object: 'chat.completion' })
    restore = configure({ models: { 'my-finetune': { contextWindow: 8000, maxOutputTokens: 100 } } })
    await expect(openaiFor(proxy).chat.completions.create({ model: 'my-finetune', messages: user, max_tokens: 101 })).rejects.toMatchObject({ status: 400, code: 'invalid_value' })
  })
})
