/**
 * Google Gemini through `@google/genai`, unchanged, against the FakeProxy on 127.0.0.1: text,
 * streaming, a tool loop, structured output, usage, errors and retries, token counting,
 * embeddings and the model list.
 */
import { ApiError, GoogleGenAI, Type, type Content } from '@google/genai'
import { describe, expect, test } from 'vitest'
import { ScriptedLLM, scriptedLLM, toolCall } from '../../src/index.js'
import { CANNED_REPLY } from '../../src/server/default-brain.js'
import { startProxy } from '../proxy/helpers.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'

function genaiFor(proxy: FakeProxy, retryAttempts?: number): GoogleGenAI {
  return new GoogleGenAI({
    apiKey: 'test-key',
    httpOptions: { baseUrl: proxy.url, ...(retryAttempts ? { retryOptions: { attempts: retryAttempts, initialDelay: 0.001, maxDelay: 0.001 } } : {}) },
  })
}

const weather = {
  name: 'get_weather',
  description: 'weather by city',
  parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}

describe('Gemini through @google/genai', () => {
  test('generateContent answers text with usage, and the request is recorded in the neutral model', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Bonjour!'], { usage: { inputTokens: 9, outputTokens: 2 } }) })
    const response = await genaiFor(proxy).models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'Say hello in French',
      config: { systemInstruction: 'Be brief.', temperature: 0.2, maxOutputTokens: 50 },
    })
    expect(response.text).toBe('Bonjour!')
    expect(response.candidates?.[0].finishReason).toBe('STOP')
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 9, candidatesTokenCount: 2, totalTokenCount: 11 })
    expect(response.modelVersion).toBe('gemini-2.5-flash')
    expect(proxy.requests[0]).toMatchObject({
      // @google/genai 2 speaks v1beta by default, 3 speaks v1.
      path: expect.stringMatching(/^\/v1(beta)?\/models\/gemini-2\.5-flash:generateContent$/),
      dialect: 'gemini-generate',
      model: 'gemini-2.5-flash',
      stream: false,
      headers: { 'x-goog-api-key': 'test-key' },
      request: { system: 'Be brief.', temperature: 0.2, maxTokens: 50, messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello in French' }] }] },
    })
  })

  test('generateContentStream (alt=sse) delivers the reply in several chunks, usage on the last', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three four'], { usage: { inputTokens: 5, outputTokens: 4 } }) })
    const stream = await genaiFor(proxy).models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'count' })
    const chunks = []
    for await (const chunk of stream) chunks.push(chunk)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toBe('one two three four')
    expect(chunks.at(-1)?.candidates?.[0].finishReason).toBe('STOP')
    expect(chunks.at(-1)?.usageMetadata).toMatchObject({ promptTokenCount: 5, candidatesTokenCount: 4 })
    expect(chunks[0].candidates?.[0].finishReason).toBeUndefined()
    expect(proxy.requests[0]).toMatchObject({ path: expect.stringMatching(/^\/v1(beta)?\/models\/gemini-2\.5-flash:streamGenerateContent$/), stream: true })
  })

  test('a tool loop: the call comes back with its args and id, the function response reaches the script', async () => {
    const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }, 'call_paris'), 'Sunny in Paris.'])
    const proxy = await startProxy({ llm })
    const genai = genaiFor(proxy)
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]
    const config = { tools: [{ functionDeclarations: [weather] }] }
    const first = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents, config })
    const call = first.functionCalls?.[0]
    expect(call).toEqual({ id: 'call_paris', name: 'get_weather', args: { city: 'Paris' } })
    contents.push(first.candidates![0].content!, { role: 'user', parts: [{ functionResponse: { id: call!.id, name: call!.name!, response: { output: { temp: 21 } } } }] })
    const second = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents, config })
    expect(second.text).toBe('Sunny in Paris.')
    expect(llm.requests[0].tools).toEqual([{ name: 'get_weather', description: 'weather by city', parameters: weather.parametersJsonSchema }])
    expect(llm.requests[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_paris', name: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', id: 'call_paris', name: 'get_weather', result: { temp: 21 } }] },
    ])
  })

  test('a streamed tool call arrives whole in one chunk', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Oslo' }, 'call_oslo')]) })
    const stream = await genaiFor(proxy).models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'Weather in Oslo?',
      config: { tools: [{ functionDeclarations: [weather] }] },
    })
    const calls = []
    for await (const chunk of stream) calls.push(...(chunk.functionCalls ?? []))
    expect(calls).toEqual([{ id: 'call_oslo', name: 'get_weather', args: { city: 'Oslo' } }])
  })

  test('structured output: the default brain answers a value of the requested schema (OpenAPI types too)', async () => {
    const proxy = await startProxy()
    const response = await genaiFor(proxy).models.generateContent({
      model: 'gemini-2.5-flash',
      contents: 'A recipe',
      config: {
        responseMimeType: 'application/json',
        responseSchema: { type: Type.OBJECT, properties: { name: { type: Type.STRING }, steps: { type: Type.INTEGER } }, required: ['name', 'steps'] },
      },
    })
    const value = JSON.parse(response.text ?? '')
    expect(value).toEqual({ name: expect.any(String), steps: expect.any(Number) })
    expect(proxy.requests[0].request.responseFormat).toEqual({
      type: 'json',
      schema: { type: 'object', properties: { name: { type: 'string' }, steps: { type: 'integer' } }, required: ['name', 'steps'] },
    })
  })

  test('a refusal the SDK retries: 429 twice, then the answer, with retryOptions of three attempts', async () => {
    const proxy = await startProxy()
    proxy.refuse('rate_limited', { times: 2 })
    const response = await genaiFor(proxy, 3).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })
    expect(response.text).toBe(CANNED_REPLY)
    expect(proxy.refusals.map((refusal) => refusal.status)).toEqual([429, 429])
    expect(proxy.requests).toHaveLength(1)
  })

  test('an error is an ApiError with the status and Gemini body; without retryOptions it is not retried', async () => {
    const proxy = await startProxy({ agents: ['researcher'] })
    proxy.refuse('upstream_timeout', { message: 'too slow' })
    const error = await genaiFor(proxy).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(504)
    expect(JSON.parse((error as ApiError).message)).toEqual({
      error: { code: 504, message: 'too slow', status: 'DEADLINE_EXCEEDED', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'upstream_timeout', domain: 'agent-doubles' }] },
    })
    expect(proxy.refusals).toHaveLength(1)
  })

  test('countTokens counts the contents without using a scripted turn', async () => {
    const llm = new ScriptedLLM(['unused'])
    const proxy = await startProxy({ llm })
    const counted = await genaiFor(proxy).models.countTokens({ model: 'gemini-2.5-flash', contents: 'How many tokens is this sentence?' })
    expect(counted.totalTokens).toBeGreaterThan(0)
    expect(llm.callCount).toBe(0)
    expect(proxy.requests[0]).toMatchObject({ dialect: 'gemini-count-tokens', model: 'gemini-2.5-flash' })
  })

  test('embedContent answers deterministic vectors, or the script’s own embed function', async () => {
    const proxy = await startProxy()
    const genai = genaiFor(proxy)
    const first = await genai.models.embedContent({ model: 'gemini-embedding-001', contents: ['cat', 'dog', 'cat'], config: { outputDimensionality: 8 } })
    const vectors = first.embeddings?.map((embedding) => embedding.values)
    expect(vectors).toHaveLength(3)
    expect(vectors?.[0]).toHaveLength(8)
    expect(vectors?.[0]).toEqual(vectors?.[2])
    expect(vectors?.[0]).not.toEqual(vectors?.[1])

    proxy.use(scriptedLLM([], { embed: (text, model) => [text.length, model.length] }))
    const scripted = await genai.models.embedContent({ model: 'gemini-embedding-001', contents: 'hello' })
    expect(scripted.embeddings?.[0].values).toEqual([5, 'gemini-embedding-001'.length])
  })

  test('models.list pages through the Gemini model list; models.get reads one', async () => {
    const proxy = await startProxy()
    const genai = genaiFor(proxy)
    const names = []
    for await (const model of await genai.models.list()) names.push(model.name)
    expect(names).toEqual(['models/gemini-2.5-flash', 'models/gemini-2.5-pro', 'models/gemini-embedding-001'])
    const one = await genai.models.get({ model: 'gemini-2.5-pro' })
    expect(one).toMatchObject({ name: 'models/gemini-2.5-pro', inputTokenLimit: 1_048_576 })
  })
})
