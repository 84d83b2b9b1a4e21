/**
 * The AI SDK's providers for the second release's wire dialects, unchanged, against the
 * FakeProxy: text, streaming, a multi-step tool loop, structured output, usage, errors with
 * their retries, and embeddings.
 */
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock'
import { createAzure } from '@ai-sdk/azure'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOllama } from 'ollama-ai-provider-v2'
import { APICallError, embedMany, generateText, Output, stepCountIs, streamText, tool, type EmbeddingModel, type LanguageModel } from 'ai'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { scriptedLLM, toolCall } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

interface Provider {
  name: string
  dialect: string
  /** The path the generation requests take. */
  path: RegExp
  model: (proxy: FakeProxy) => LanguageModel
  /** The provider's embedding model on the fake and the dialect serving it, where the fake serves one. */
  embeddings?: { dialect: string; model: (proxy: FakeProxy) => EmbeddingModel }
}

const providers: Provider[] = [
  {
    name: '@ai-sdk/google',
    dialect: 'gemini-generate',
    path: /^\/v1beta\/models\/gemini-2\.5-flash:(stream)?[gG]enerateContent$/,
    model: (proxy) => createGoogleGenerativeAI({ apiKey: 'k', baseURL: `${proxy.url}/v1beta` })('gemini-2.5-flash'),
    embeddings: { dialect: 'gemini-embed', model: (proxy) => createGoogleGenerativeAI({ apiKey: 'k', baseURL: `${proxy.url}/v1beta` }).embeddingModel('gemini-embedding-001') },
  },
  {
    name: '@ai-sdk/azure (Responses on /openai/v1)',
    dialect: 'openai-responses',
    path: /^\/openai\/v1\/responses$/,
    model: (proxy) => createAzure({ apiKey: 'k', baseURL: `${proxy.url}/openai/v1` })('my-deployment'),
    embeddings: { dialect: 'openai-embeddings', model: (proxy) => createAzure({ apiKey: 'k', baseURL: `${proxy.url}/openai/v1` }).embeddingModel('my-embedder') },
  },
  {
    name: '@ai-sdk/azure .chat (deployment URLs)',
    dialect: 'openai-chat',
    path: /^\/openai\/deployments\/my-deployment\/chat\/completions$/,
    model: (proxy) => createAzure({ apiKey: 'k', baseURL: `${proxy.url}/openai`, useDeploymentBasedUrls: true, apiVersion: '2024-10-21' }).chat('my-deployment'),
    embeddings: { dialect: 'openai-embeddings', model: (proxy) => createAzure({ apiKey: 'k', baseURL: `${proxy.url}/openai`, useDeploymentBasedUrls: true, apiVersion: '2024-10-21' }).embeddingModel('my-embedder') },
  },
  {
    name: 'ollama-ai-provider-v2',
    dialect: 'ollama-chat',
    path: /^\/api\/chat$/,
    model: (proxy) => createOllama({ baseURL: `${proxy.url}/api` })('llama3.2'),
    embeddings: { dialect: 'ollama-embed', model: (proxy) => createOllama({ baseURL: `${proxy.url}/api` }).embeddingModel('nomic-embed-text') },
  },
  {
    name: '@ai-sdk/amazon-bedrock',
    dialect: 'bedrock-converse',
    path: /^\/model\/amazon\.nova-lite-v1%3A0\/converse(-stream)?$/,
    model: (proxy) => createAmazonBedrock({ region: 'us-east-1', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', baseURL: proxy.url })('amazon.nova-lite-v1:0'),
    embeddings: {
      dialect: 'bedrock-embed',
      model: (proxy) => createAmazonBedrock({ region: 'us-east-1', accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', baseURL: proxy.url }).embeddingModel('amazon.titan-embed-text-v2:0'),
    },
  },
]

const weather = tool({
  description: 'weather by city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temp: 20 }),
})

describe.each(providers)('the AI SDK through $name', ({ dialect, path, model }) => {
  test('generateText answers with text, usage and finish reason', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hello from fake'], { usage: { inputTokens: 10, outputTokens: 5 } }) })
    const result = await generateText({ model: model(proxy), system: 'be brief', prompt: 'hi', maxRetries: 0 })
    expect(result.text).toBe('Hello from fake')
    expect(result.finishReason).toBe('stop')
    expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 })
    expect(proxy.requests[0].path).toMatch(path)
    expect(proxy.requests[0]).toMatchObject({ dialect, request: { system: 'be brief', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] } })
  })

  test('streamText streams text in deltas with usage', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hello from the fake'], { usage: { inputTokens: 10, outputTokens: 5 } }) })
    const result = streamText({ model: model(proxy), prompt: 'hi', maxRetries: 0, onError: () => {} })
    const chunks: string[] = []
    for await (const chunk of result.textStream) chunks.push(chunk)
    expect(chunks.join('')).toBe('Hello from the fake')
    expect(chunks.length).toBeGreaterThan(1)
    expect(await result.finishReason).toBe('stop')
    expect(await result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 })
    expect(proxy.requests[0].stream).toBe(true)
  })

  test('a multi-step tool loop runs the tool and sends its result back', async () => {
    const llm = scriptedLLM([toolCall('weather', { city: 'Paris' }), 'It is 20 degrees in Paris.'])
    const proxy = await startProxy({ llm })
    const result = await generateText({ model: model(proxy), prompt: 'Weather in Paris?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0 })
    expect(result.text).toBe('It is 20 degrees in Paris.')
    expect(result.steps[0].toolCalls.map((call) => [call.toolName, call.input])).toEqual([['weather', { city: 'Paris' }]])
    expect(result.steps[0].finishReason).toBe('tool-calls')
    const sent = llm.requests[1].messages.find((message) => message.role === 'tool')?.content[0]
    expect(sent).toMatchObject({ type: 'tool-result', name: 'weather' })
    expect(JSON.stringify(sent)).toContain('20')
  })

  test('streamText runs a tool loop too', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('weather', { city: 'Rome' }), 'Warm in Rome.']) })
    const result = streamText({ model: model(proxy), prompt: 'Weather in Rome?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0, onError: () => {} })
    expect(await result.text).toBe('Warm in Rome.')
    expect((await result.steps)[0].toolCalls[0].input).toEqual({ city: 'Rome' })
  })

  test('Output.object gives a parsed object, and the request asks for JSON', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['{"answer":42}']) })
    const result = await generateText({ model: model(proxy), prompt: 'answer', maxRetries: 0, output: Output.object({ schema: z.object({ answer: z.number() }) }) })
    expect(result.output).toEqual({ answer: 42 })
    expect(proxy.requests[0].request.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object', properties: { answer: { type: 'number' } } } })
  })

  test('a retried refusal is retried by the SDK until it succeeds', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['finally']) })
    proxy.refuse('rate_limited', { times: 2 })
    const result = await generateText({ model: model(proxy), prompt: 'hi', maxRetries: 2 })
    expect(result.text).toBe('finally')
    expect(proxy.refusals.map((refusal) => refusal.status)).toEqual([429, 429])
  })

  test('a refusal surfaces as an APICallError with its status, not retried when the status is final', async () => {
    const proxy = await startProxy({ agents: ['researcher'] })
    proxy.refuse('policy_denied', { times: 3, message: 'not today' })
    const error = await generateText({ model: model(proxy), prompt: 'hi', maxRetries: 2 }).catch((caught: unknown) => caught)
    expect(APICallError.isInstance(error)).toBe(true)
    expect((error as APICallError).statusCode).toBe(403)
    // The body is the provider's own error shape (ollama-ai-provider-v2 reads only `{ error: { message } }`,
    // not Ollama's `{ error: "…" }`, so its message falls back to the status text, as against real Ollama).
    expect((error as APICallError).responseBody).toContain('not today')
    expect(proxy.refusals).toHaveLength(1)
  })
})

const withEmbeddings = providers.flatMap((provider) => (provider.embeddings ? [{ name: provider.name, embeddings: provider.embeddings }] : []))

describe.each(withEmbeddings)('AI SDK embeddings through $name', ({ embeddings: served }) => {
  test('embedMany answers one deterministic vector per value, or the scripted ones', async () => {
    const proxy = await startProxy()
    const { embeddings } = await embedMany({ model: served.model(proxy), values: ['cat', 'dog', 'cat'], maxRetries: 0 })
    expect(embeddings).toHaveLength(3)
    expect(embeddings[0]).toEqual(embeddings[2])
    expect(embeddings[0]).not.toEqual(embeddings[1])
    expect(proxy.requests[0].dialect).toBe(served.dialect)
    proxy.use(scriptedLLM([], { embed: (text) => [text.length, 1] }))
    const scripted = await embedMany({ model: served.model(proxy), values: ['a', 'abc'], maxRetries: 0 })
    expect(scripted.embeddings).toEqual([[1, 1], [3, 1]])
  })
})
