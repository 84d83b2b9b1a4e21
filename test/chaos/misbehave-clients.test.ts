/**
 * SPEC §19: every misbehaviour, rendered on each wire as its provider sends that case, and what
 * each real client makes of it — the `openai` stream helper's errors, the AI SDK's
 * InvalidToolInputError / NoSuchToolError (AI SDK 6 names), `@anthropic-ai/sdk`, `@google/genai`,
 * the AWS SDK and `ollama`.
 */
import Anthropic from '@anthropic-ai/sdk'
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { GoogleGenAI } from '@google/genai'
import { generateText, NoSuchToolError, InvalidToolInputError, tool } from 'ai'
import { Ollama } from 'ollama'
import { LengthFinishReasonError } from 'openai/error'
import { describe, expect, onTestFinished, test } from 'vitest'
import { z } from 'zod'
import { misbehave, misbehaviourKinds, scriptedLLM, type MisbehaviourKind } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { anthropicFor, openaiFor, startProxy } from '../proxy/helpers.js'

;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

const params = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }
const chatTools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: params } }]
const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Weather in Paris?' }], tools: chatTools }

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe('OpenAI Chat Completions: each kind as OpenAI sends it', () => {
  test.each(misbehaviourKinds)('%s, JSON and stream agree', async (kind) => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    proxy.misbehave(kind, { times: 2 })
    const json = (await client.chat.completions.create(ask)).choices[0]
    const stream = await client.chat.completions.stream(ask).finalChatCompletion().catch((error: Error) => error)
    const calls = json.message.tool_calls?.map((call) => (call.type === 'function' ? call.function : undefined))
    switch (kind) {
      case 'invalid_tool_args':
        expect(json.finish_reason).toBe('tool_calls')
        expect(calls?.[0]?.name).toBe('get_weather')
        expect(parses(calls?.[0]?.arguments ?? '')).toBe(false)
        break
      case 'schema_violation':
        expect(JSON.parse(calls?.[0]?.arguments ?? '')).toEqual({ city: 12345 })
        break
      case 'unknown_tool':
        expect(calls?.[0]?.name).toBe('search_web')
        break
      case 'duplicate_tool_ids':
        expect(json.message.tool_calls).toHaveLength(2)
        expect(json.message.tool_calls?.[0].id).toBe(json.message.tool_calls?.[1].id)
        expect(json.message.tool_calls?.[0].id).toMatch(/^call_/)
        break
      case 'truncated':
        expect(json.finish_reason).toBe('length')
        expect(json.message.content).toMatch(/depends on$/)
        break
      case 'empty':
        expect(json).toMatchObject({ finish_reason: 'stop', message: { content: '', refusal: null } })
        break
      case 'refusal':
        expect(json).toMatchObject({ finish_reason: 'stop', message: { content: null, refusal: expect.stringMatching(/can't help/) } })
        break
      case 'content_filter':
        expect(json.finish_reason).toBe('content_filter')
        break
      case 'reasoning_only':
        // Chat Completions carries no reasoning: an answer with nothing in it.
        expect(json).toMatchObject({ finish_reason: 'stop', message: { content: '' } })
        break
      case 'wrong_language':
        expect(json.message.content).toMatch(/^Voici/)
        break
      case 'off_format':
        expect(parses(json.message.content ?? '')).toBe(false)
        break
    }
    // The stream carries the same answer (the helper's own errors aside).
    if (!(stream instanceof Error)) {
      expect(stream.choices[0].finish_reason).toBe(json.finish_reason)
      expect(stream.choices[0].message.refusal ?? null).toEqual(json.message.refusal)
    }
    expect(proxy.requests.map((request) => request.fault)).toEqual([
      { kind, source: 'planned' },
      { kind, source: 'planned' },
    ])
  })

  test("the openai stream helper throws on arguments that are not JSON, and LengthFinishReasonError on a cut call", async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    const strict = { ...ask, tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters: params, strict: true } }] }
    proxy.misbehave('invalid_tool_args')
    await expect(client.chat.completions.stream(strict).finalChatCompletion()).rejects.toThrow(/JSON/)
    proxy.misbehave('truncated', { at: 'tool-call' })
    // By its message, not its class: the Node 24 leg aliases `openai` to v7, whose class is not v6's.
    await expect(client.chat.completions.stream(strict).finalChatCompletion()).rejects.toThrow(new LengthFinishReasonError().message)
    // The brain was never asked: the next call gets its answer.
    const next = await client.chat.completions.create(ask)
    expect(next.choices[0].finish_reason).toBe('stop')
  })
})

describe('OpenAI Responses', () => {
  test('refusal is a refusal content part, streamed as response.refusal.delta', async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    proxy.misbehave('refusal', { times: 2, text: 'No.' })
    const json = await client.responses.create({ model: 'gpt-4o-mini', input: 'hi' })
    expect(json.output[0]).toMatchObject({ type: 'message', content: [{ type: 'refusal', refusal: 'No.' }] })
    const types: string[] = []
    for await (const event of await client.responses.create({ model: 'gpt-4o-mini', input: 'hi', stream: true })) types.push(event.type)
    expect(types).toContain('response.refusal.delta')
    expect(types).toContain('response.refusal.done')
    expect(types.at(-1)).toBe('response.completed')
  })

  test('truncated and content_filter end incomplete, with the reason', async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    proxy.misbehave('truncated').misbehave('content_filter')
    expect(await client.responses.create({ model: 'gpt-4o-mini', input: 'hi' })).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })
    expect(await client.responses.create({ model: 'gpt-4o-mini', input: 'hi' })).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } })
  })

  test('invalid_tool_args: the function call carries the text as the model wrote it', async () => {
    const proxy = await startProxy()
    proxy.misbehave('invalid_tool_args')
    const json = await openaiFor(proxy).responses.create({ model: 'gpt-4o-mini', input: 'hi', tools: [{ type: 'function', name: 'get_weather', parameters: params, strict: false }] })
    const call = json.output.find((item) => item.type === 'function_call')
    expect(call?.type === 'function_call' && parses(call.arguments)).toBe(false)
  })
})

describe('the AI SDK (6): invalid calls become tool errors with its own error classes', () => {
  const tools = { get_weather: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` }) }
  const models = (proxy: FakeProxy) => ({
    'OpenAI Chat': createOpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1` }).chat('gpt-4o-mini'),
    Anthropic: createAnthropic({ apiKey: 'k', baseURL: `${proxy.url}/v1` })('claude-sonnet-4-6'),
  })

  test.each(['OpenAI Chat', 'Anthropic'] as const)('%s: NoSuchToolError, InvalidToolInputError, content-filter, length', async (provider) => {
    const proxy = await startProxy()
    const model = models(proxy)[provider]
    const errorOf = async (kind: MisbehaviourKind): Promise<unknown> => {
      proxy.misbehave(kind)
      const result = await generateText({ model, prompt: 'Weather in Paris?', tools })
      // The invalid call is kept as a call marked `invalid`, with the SDK's error; a tool-error answers it.
      const call = result.content.find((part) => part.type === 'tool-call') as { invalid?: boolean; error?: unknown } | undefined
      expect(result.content.some((part) => part.type === 'tool-error')).toBe(true)
      return call?.invalid ? call.error : undefined
    }
    expect(NoSuchToolError.isInstance(await errorOf('unknown_tool'))).toBe(true)
    expect(InvalidToolInputError.isInstance(await errorOf('schema_violation'))).toBe(true)
    // Anthropic's JSON answer carries an object as input: the broken text arrives as `{}`,
    // which the schema rejects all the same.
    expect(InvalidToolInputError.isInstance(await errorOf('invalid_tool_args'))).toBe(true)
    proxy.misbehave('refusal').misbehave('content_filter').misbehave('truncated')
    expect((await generateText({ model, prompt: 'hi' })).finishReason).toBe('content-filter')
    expect((await generateText({ model, prompt: 'hi' })).finishReason).toBe('content-filter')
    expect((await generateText({ model, prompt: 'hi' })).finishReason).toBe('length')
  })

  test('misbehave() as a ScriptedLLM reply, straight into the AI SDK (no proxy)', async () => {
    const llm = scriptedLLM([misbehave('unknown_tool'), misbehave('refusal')])
    const first = await generateText({ model: llm.languageModel(), prompt: 'hi', tools })
    const call = first.content.find((part) => part.type === 'tool-call') as { invalid?: boolean; error?: unknown } | undefined
    expect(NoSuchToolError.isInstance(call?.error)).toBe(true)
    expect((await generateText({ model: llm.languageModel(), prompt: 'hi' })).finishReason).toBe('content-filter')
  })
})

describe('Anthropic Messages through @anthropic-ai/sdk', () => {
  const tools = [{ name: 'get_weather', input_schema: params as Anthropic.Tool.InputSchema }]
  const body = { model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user' as const, content: 'hi' }], tools }

  test('refusal, truncated, content_filter: the stop reasons', async () => {
    const proxy = await startProxy()
    const client = anthropicFor(proxy)
    proxy.misbehave('refusal').misbehave('truncated').misbehave('content_filter')
    expect((await client.messages.create(body)).stop_reason).toBe('refusal')
    expect((await client.messages.create(body)).stop_reason).toBe('max_tokens')
    expect((await client.messages.create(body)).stop_reason).toBe('refusal')
  })

  test('invalid_tool_args streams its partial_json as written: the SDK stream fails to parse it', async () => {
    const proxy = await startProxy()
    proxy.misbehave('invalid_tool_args')
    await expect(anthropicFor(proxy).messages.stream(body).finalMessage()).rejects.toThrow(/JSON/)
  })

  test('truncated mid-tool-call: max_tokens with the call cut short in the stream', async () => {
    const proxy = await startProxy()
    proxy.misbehave('truncated', { at: 'tool-call' })
    const deltas: string[] = []
    for await (const event of await anthropicFor(proxy).messages.create({ ...body, stream: true })) {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') deltas.push(event.delta.partial_json)
      if (event.type === 'message_delta') expect(event.delta.stop_reason).toBe('max_tokens')
    }
    expect(parses(deltas.join(''))).toBe(false)
  })
})

describe('Gemini through @google/genai', () => {
  const genai = (proxy: FakeProxy) => new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: proxy.url } })
  const config = { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: params }] }] }

  test('invalid_tool_args is MALFORMED_FUNCTION_CALL with no call; refusal SAFETY; truncated MAX_TOKENS', async () => {
    const proxy = await startProxy()
    const client = genai(proxy)
    proxy.misbehave('invalid_tool_args').misbehave('refusal').misbehave('truncated').misbehave('schema_violation')
    const malformed = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config })
    expect(malformed.candidates?.[0].finishReason).toBe('MALFORMED_FUNCTION_CALL')
    expect(malformed.functionCalls).toBeUndefined()
    const refused = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config })
    expect(refused.candidates?.[0].finishReason).toBe('SAFETY')
    expect(refused.text ?? '').toBe('')
    const cut = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config })
    expect(cut.candidates?.[0].finishReason).toBe('MAX_TOKENS')
    const wrong = await client.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config })
    expect(wrong.functionCalls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 12345 } })
  })

  test('the stream sends no malformed call and ends with the finish reason', async () => {
    const proxy = await startProxy()
    proxy.misbehave('invalid_tool_args')
    const reasons: string[] = []
    for await (const chunk of await genai(proxy).models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi', config })) {
      expect(chunk.functionCalls).toBeUndefined()
      if (chunk.candidates?.[0].finishReason) reasons.push(chunk.candidates[0].finishReason)
    }
    expect(reasons).toEqual(['MALFORMED_FUNCTION_CALL'])
  })
})

describe('Bedrock Converse through the AWS SDK', () => {
  test('content_filter and refusal are content_filtered, truncated max_tokens', async () => {
    const proxy = await startProxy()
    const client = new BedrockRuntimeClient({ endpoint: proxy.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1 })
    onTestFinished(() => client.destroy())
    const send = () => client.send(new ConverseCommand({ modelId: 'amazon.nova-lite-v1:0', messages: [{ role: 'user', content: [{ text: 'hi' }] }] }))
    proxy.misbehave('content_filter').misbehave('refusal').misbehave('truncated')
    expect((await send()).stopReason).toBe('content_filtered')
    expect(await send()).toMatchObject({ stopReason: 'content_filtered', output: { message: { content: [{ text: expect.stringMatching(/can't help/) }] } } })
    expect((await send()).stopReason).toBe('max_tokens')
  })
})

describe('Ollama through the ollama client', () => {
  test('a call that does not parse stays text in content; truncated is done_reason length', async () => {
    const proxy = await startProxy()
    const client = new Ollama({ host: proxy.url })
    proxy.misbehave('invalid_tool_args').misbehave('truncated')
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: params } }]
    const broken = await client.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], tools, stream: false })
    expect(broken.message.tool_calls).toBeUndefined()
    expect(broken.message.content).toBe("{'city':'string'}")
    const cut = await client.chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: false })
    expect(cut.done_reason).toBe('length')
  })
})
