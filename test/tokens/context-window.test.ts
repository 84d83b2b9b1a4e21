/**
 * Context windows (SPEC §20): a request over a known model's window gets that provider's own
 * `context_length_exceeded` error by itself, on every wire, recorded with its status; unknown
 * models have no limit; `configure({ models })` adds or overrides a window.
 */
import Anthropic from '@anthropic-ai/sdk'
import { BedrockRuntimeClient, ConverseCommand, InvokeModelCommand, ValidationException } from '@aws-sdk/client-bedrock-runtime'
import { ApiError, GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { afterEach, describe, expect, onTestFinished, test } from 'vitest'
import { configure, knownModels, scriptedLLM } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { anthropicFor, openaiFor, startProxy } from '../proxy/helpers.js'

let restore: (() => void) | undefined
afterEach(() => {
  restore?.()
  restore = undefined
})

/** A window small enough to overflow cheaply, for the models these tests use. */
function smallWindows(...models: string[]): void {
  restore = configure({ models: Object.fromEntries(models.map((model) => [model, { contextWindow: 100 }])) })
}

const long = 'word '.repeat(200)

function bedrockFor(proxy: FakeProxy): BedrockRuntimeClient {
  const client = new BedrockRuntimeClient({ endpoint: proxy.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1 })
  onTestFinished(() => client.destroy())
  return client
}

describe('a prompt over the window gets the provider’s own error', () => {
  test('OpenAI Chat: 400 context_length_exceeded with the counts in OpenAI’s words, recorded', async () => {
    smallWindows('gpt-4o')
    const proxy = await startProxy({ llm: scriptedLLM(['never']) })
    const error = await openaiFor(proxy).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: long }] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'messages', type: 'invalid_request_error' })
    expect((error as Error).message).toMatch(/This model's maximum context length is 100 tokens\. However, your messages resulted in \d+ tokens\./)
    expect(proxy.requests[0]).toMatchObject({ status: 400, error: { code: 'context_length_exceeded' } })
  })

  test('OpenAI Responses: the Responses wording, param input', async () => {
    smallWindows('gpt-5')
    const proxy = await startProxy()
    const error = await openaiFor(proxy).responses.create({ model: 'gpt-5', input: long }).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'input' })
    expect((error as Error).message).toMatch(/Your input exceeds the context window of this model/)
  })

  test('Anthropic: 400 invalid_request_error "prompt is too long: N tokens > W maximum", streamed requests too', async () => {
    smallWindows('claude-sonnet-4-5')
    const proxy = await startProxy()
    const body = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user' as const, content: long }] }
    const error = await anthropicFor(proxy).messages.create(body).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Anthropic.BadRequestError)
    expect((error as { error?: unknown }).error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 250 tokens > 100 maximum' } })
    await expect(anthropicFor(proxy).messages.stream(body).finalMessage()).rejects.toBeInstanceOf(Anthropic.BadRequestError)
  })

  test('Gemini: 400 INVALID_ARGUMENT naming the input token count and the maximum', async () => {
    smallWindows('gemini-2.5-flash')
    const proxy = await startProxy()
    const genai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: proxy.url } })
    const error = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: long }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400 })
    expect((error as Error).message).toMatch(/The input token count \(250\) exceeds the maximum number of tokens allowed \(100\)/)
  })

  test('Bedrock Converse and InvokeModel: ValidationException "Input is too long for requested model."', async () => {
    const modelId = 'anthropic.claude-sonnet-4-5-20250929-v1:0'
    smallWindows(modelId)
    const proxy = await startProxy()
    const converse = await bedrockFor(proxy).send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: long }] }] })).catch((e: unknown) => e)
    expect(converse).toBeInstanceOf(ValidationException)
    expect((converse as Error).message).toBe('Input is too long for requested model.')
    const body = new TextEncoder().encode(JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: [{ role: 'user', content: long }] }))
    const invoke = await bedrockFor(proxy).send(new InvokeModelCommand({ modelId, body })).catch((e: unknown) => e)
    expect(invoke).toBeInstanceOf(ValidationException)
  })
})

describe('which models have a window', () => {
  test('the built-in table holds current models of every provider, with max output', () => {
    for (const id of ['gpt-5', 'gpt-4.1', 'gpt-4o', 'o3', 'o4-mini', 'claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'gemini-2.5-pro', 'gemini-3-pro', 'amazon.nova-pro']) {
      expect(knownModels[id]).toMatchObject({ contextWindow: expect.any(Number), maxOutputTokens: expect.any(Number) })
    }
    expect(knownModels['gpt-4.1']!.contextWindow).toBe(1_047_576)
    expect(knownModels['claude-sonnet-4-5']!.contextWindow).toBe(200_000)
  })

  test('a known model within its window answers; an unknown model has no limit', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['fits', 'no limit']) })
    const huge = 'x'.repeat(1_000_000) // 250,000 estimated tokens: over any Claude window
    await expect(anthropicFor(proxy).messages.create({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'short' }] })).resolves.toMatchObject({ type: 'message' })
    await expect(anthropicFor(proxy).messages.create({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: huge }] })).rejects.toThrow(/prompt is too long: 250\d{3} tokens > 200000 maximum/)
    await expect(anthropicFor(proxy).messages.create({ model: 'my-local-model', max_tokens: 5, messages: [{ role: 'user', content: huge }] })).resolves.toMatchObject({ type: 'message' })
  })

  test('configure({ models }) adds a model and overrides a built-in one; bad entries are TypeErrors', async () => {
    restore = configure({ models: { 'my-local-model': { contextWindow: 10 }, 'gpt-4o': { contextWindow: 1_000_000 } } })
    const proxy = await startProxy({ llm: scriptedLLM(['ok']) })
    await expect(openaiFor(proxy).chat.completions.create({ model: 'my-local-model', messages: [{ role: 'user', content: long }] })).rejects.toMatchObject({ code: 'context_length_exceeded' })
    // 150,000 tokens: over gpt-4o's built-in 128,000, within the configured window.
    await expect(openaiFor(proxy).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: ' word'.repeat(150_000) }] })).resolves.toMatchObject({ object: 'chat.completion' })
    expect(() => configure({ models: { a: { contextWindow: 0 } } })).toThrow(new TypeError('[agent-doubles] configure: models["a"].contextWindow must be a positive integer (tokens), got 0'))
    expect(() => configure({ models: { a: { window: 5 } } } as never)).toThrow(/models\["a"\] has unknown key "window"/)
    expect(() => configure({ models: { a: 5 } } as never)).toThrow(TypeError)
  })
})
