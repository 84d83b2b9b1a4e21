/**
 * RecordMode end to end, without the FakeProxy pipeline: real `openai`, `@anthropic-ai/sdk` and
 * AI SDK clients call a test front that mounts RecordMode; a second, real FakeProxy plays the
 * upstream. Callers get the upstream's answers unchanged; each turn becomes one transcript line
 * that holds no secret and replays.
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import Anthropic from '@anthropic-ai/sdk'
import { generateText } from 'ai'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { toolCall } from '../../../src/llm/helpers.js'
import { ScriptedLLM } from '../../../src/llm/scripted-llm.js'
import { proxyError } from '../../../src/gateway/proxy-error.js'
import { RecordMode, validateRecordOptions } from '../../../src/upstream/record-mode.js'
import { startProxy } from '../helpers.js'
import { mountRecordMode, tempDir, transcriptLines } from './mount.js'
import { deadOrigin } from './serve.js'

const OPENAI_KEY = 'sk-openai-SECRET-0001'
const ANTHROPIC_KEY = 'sk-ant-SECRET-0002'
const AI_SDK_KEY = 'sk-ant-SECRET-0003'

/** The upstream's brain: a weather tool call, a fixed greeting, else an echo. */
function upstreamBrain(): ScriptedLLM {
  return new ScriptedLLM({ weather: toolCall('get_weather', { city: 'Paris', days: 2 }, 'call_w1'), hello: 'Hello there, friend of the record.' })
}

const weatherTool = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'number' } } } } }

async function setUp(options: { openai?: boolean; anthropic?: boolean } = { openai: true, anthropic: true }) {
  const upstream = await startProxy({ llm: upstreamBrain() })
  const file = join(await tempDir(), 'recorded', 'turns.jsonl')
  const front = await mountRecordMode({
    upstream: { ...(options.openai ? { openai: upstream.url } : {}), ...(options.anthropic ? { anthropic: upstream.url } : {}) },
    record: file,
  })
  const openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${front.url}/v1`, maxRetries: 0 })
  const anthropic = new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: front.url, maxRetries: 0 })
  return { upstream, file, front, openai, anthropic }
}

/** The neutral answer the upstream's brain gave, as a transcript keeps it. */
const answerOf = (response: Record<string, unknown> | undefined) => ({ content: response?.content, finishReason: response?.finishReason, usage: response?.usage })

describe('RecordMode forwards, streams back unchanged, and records one line per turn', () => {
  test('openai chat (JSON and stream), responses (JSON and stream) and Anthropic (create and stream)', async () => {
    const { upstream, file, openai, anthropic, front } = await setUp()

    const chat = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] })
    expect(chat.choices[0].message.content).toBe('Hello there, friend of the record.')
    expect(chat._request_id).toMatch(/^req_[0-9a-f]{32}$/) // the upstream's own request id came through

    const stream = await openai.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'what is the weather?' }],
      tools: [weatherTool],
      stream: true,
      stream_options: { include_usage: true },
    })
    let args = ''
    for await (const chunk of stream) args += chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments ?? ''
    expect(JSON.parse(args)).toEqual({ city: 'Paris', days: 2 })

    const response = await openai.responses.create({ model: 'gpt-test', instructions: 'be brief', input: 'hello' })
    expect(response.output_text).toBe('Hello there, friend of the record.')
    const final = await openai.responses.stream({ model: 'gpt-test', input: 'echo this please' }).finalResponse()
    expect(final.output_text).toBe('echo this please')

    const message = await anthropic.messages.create({ model: 'claude-test', max_tokens: 200, system: 'you are kind', messages: [{ role: 'user', content: 'hello' }] })
    expect(message.content).toEqual([{ type: 'text', text: 'Hello there, friend of the record.' }])
    const streamed = await anthropic.messages
      .stream({ model: 'claude-test', max_tokens: 200, messages: [{ role: 'user', content: 'weather in Paris?' }], tools: [{ name: 'get_weather', input_schema: { type: 'object' } }] })
      .finalMessage()
    expect(streamed.content).toEqual([{ type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { city: 'Paris', days: 2 } }])

    const seen = upstream.requests
    expect(seen.map((r) => r.dialect)).toEqual(['openai-chat', 'openai-chat', 'openai-responses', 'openai-responses', 'anthropic-messages', 'anthropic-messages'])
    expect(seen.slice(0, 4).map((r) => r.headers.authorization)).toEqual(Array(4).fill(`Bearer ${OPENAI_KEY}`))
    expect(seen.slice(4).map((r) => r.headers.authorization ?? r.headers['x-api-key'])).toEqual(Array(2).fill(expect.stringContaining(ANTHROPIC_KEY)))
    expect(seen[4].headers['anthropic-version']).toBeDefined()

    const lines = await transcriptLines(file)
    expect(lines).toHaveLength(6)
    lines.forEach((line, i) => {
      expect(line.request).toEqual(JSON.parse(JSON.stringify(seen[i].request)))
      expect(answerOf(line.response)).toEqual(answerOf(seen[i].response as unknown as Record<string, unknown>))
    })
    expect(front.outcomes.map((o) => o.response?.finishReason)).toEqual(['stop', 'tool-calls', 'stop', 'stop', 'stop', 'tool-calls'])
    const text = await readFile(file, 'utf8')
    for (const secret of [OPENAI_KEY, ANTHROPIC_KEY, 'authorization', 'x-api-key', 'anthropic-version', 'Bearer']) expect(text).not.toContain(secret)
  })

  test('the AI SDK’s Anthropic provider: its x-api-key goes upstream, never into the file', async () => {
    const { upstream, file, front } = await setUp()
    const anthropic = createAnthropic({ apiKey: AI_SDK_KEY, baseURL: `${front.url}/v1` })
    const result = await generateText({ model: anthropic('claude-test'), prompt: 'hello', maxOutputTokens: 100, maxRetries: 0 })
    expect(result.text).toBe('Hello there, friend of the record.')
    expect(upstream.requests[0].headers['x-api-key']).toBe(AI_SDK_KEY)
    expect(upstream.requests[0].path).toBe('/v1/messages') // appended as received
    const text = await readFile(file, 'utf8')
    expect(text).not.toContain(AI_SDK_KEY)
    expect(await transcriptLines(file)).toMatchObject([{ response: { content: [{ type: 'text', text: 'Hello there, friend of the record.' }] } }])
  })

  test('the caller gets the upstream’s bytes unchanged', async () => {
    const { upstream, front } = await setUp()
    const body = { id: 'chatcmpl-x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'fixed' }, finish_reason: 'stop' }], extra: { kept: [1, 2] } }
    upstream.reply(body)
    const res = await fetch(`${front.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.text()).toBe(JSON.stringify(body))
  })

  test('concurrent turns each get one whole line, matching their own request', async () => {
    const { file, openai } = await setUp()
    const texts = Array.from({ length: 8 }, (_, i) => `echo number ${i}`)
    const answers = await Promise.all(texts.map((content, i) => (i % 2 ? openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content }] }) : openai.responses.create({ model: 'm', input: content }))))
    expect(answers.map((a) => ('output_text' in a ? a.output_text : a.choices[0].message.content))).toEqual(texts)
    const lines = await transcriptLines(file)
    expect(lines).toHaveLength(8)
    for (const line of lines) {
      const asked = (line.request.messages[0].content[0] as { text: string }).text
      expect(line.response.content).toEqual([{ type: 'text', text: asked }])
    }
  })
})

describe('what RecordMode does not record', () => {
  test('an upstream error status is passed back unchanged and records nothing', async () => {
    const { upstream, file, openai, anthropic } = await setUp()
    upstream.reply({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }, { status: 401 })
    const error = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError)
    expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key')
    upstream.reply({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, { status: 529 })
    await expect(anthropic.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(Anthropic.InternalServerError)
    expect(await transcriptLines(file)).toEqual([])
  })

  test('embeddings and the model list are forwarded, not recorded', async () => {
    const { upstream, file, openai } = await setUp()
    const embedded = await openai.embeddings.create({ model: 'text-embedding-3-small', input: 'hello' })
    expect(embedded.data[0].embedding.length).toBeGreaterThan(0)
    const models = await openai.models.list()
    expect(models.data.length).toBeGreaterThan(0)
    expect(upstream.requests.map((r) => r.dialect)).toEqual(['openai-embeddings', 'openai-models'])
    expect(await transcriptLines(file)).toEqual([])
  })

  test('an unreachable upstream is the upstream_unreachable refusal, in each caller’s dialect', async () => {
    const origin = await deadOrigin()
    const file = join(await tempDir(), 'turns.jsonl')
    const front = await mountRecordMode({ upstream: { openai: origin, anthropic: origin }, record: file })
    const openaiError = await new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${front.url}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)
    expect(proxyError(openaiError)).toMatchObject({ code: 'upstream_unreachable', status: 502 })
    const anthropicError = await new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: front.url, maxRetries: 0 }).messages
      .create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)
    expect(proxyError(anthropicError)).toMatchObject({ code: 'upstream_unreachable', status: 502 })
    expect((anthropicError as { error?: { type?: string } }).error?.type).toBe('error')
    expect(front.outcomes.map((o) => o.refusal?.code)).toEqual(['upstream_unreachable', 'upstream_unreachable'])
    expect(await transcriptLines(file)).toEqual([])
  })

  test('a transcript that cannot be written does not break the answer; close() reports it', async () => {
    const upstream = await startProxy({ llm: upstreamBrain() })
    const folder = await tempDir() // a folder: appending to it fails
    const front = await mountRecordMode({ upstream: { openai: upstream.url }, record: folder })
    const openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${front.url}/v1`, maxRetries: 0 })
    const chat = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hello' }] })
    expect(chat.choices[0].message.content).toBe('Hello there, friend of the record.')
    await expect(front.recordMode.close()).rejects.toThrow(/\[agent-doubles\] FakeProxy: 1 transcript line\(s\) could not be written to ".*agent-doubles-record-/)
    await expect(front.recordMode.close()).resolves.toBeUndefined()
  })
})

describe('the recorded transcript replays', () => {
  test('turns recorded through Chat, Anthropic and Responses replay strictly, to an OpenAI client, with the same answers', async () => {
    const { file, openai, anthropic } = await setUp()
    const first = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] })
    const second = await anthropic.messages
      .stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'weather?' }], tools: [{ name: 'get_weather', input_schema: { type: 'object' } }] })
      .finalMessage()
    const third = await openai.responses.create({ model: 'gpt-test', input: 'echo me back' })

    const replay = await startProxy({ llm: await ScriptedLLM.fromTranscript(file, { strict: true }) })
    const client = new OpenAI({ apiKey: 'test', baseURL: `${replay.url}/v1`, maxRetries: 0 })
    const again1 = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] })
    expect(again1.choices[0].message.content).toBe(first.choices[0].message.content)
    expect(again1.usage).toMatchObject({ prompt_tokens: first.usage?.prompt_tokens, completion_tokens: first.usage?.completion_tokens })
    const again2 = await client.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'weather?' }], tools: [weatherTool] })
    const call = again2.choices[0].message.tool_calls?.[0]
    expect(call?.type === 'function' && call.function).toEqual({ name: 'get_weather', arguments: JSON.stringify((second.content[0] as { input: unknown }).input) })
    const again3 = await client.responses.create({ model: 'gpt-test', input: 'echo me back' })
    expect(again3.output_text).toBe(third.output_text)
  })

  test('AI SDK structured output through Anthropic’s forced json tool is kept as JSON text, replayable anywhere', async () => {
    const { upstream, file, front } = await setUp()
    upstream.use(new ScriptedLLM(['{"answer":42}']))
    const anthropic = createAnthropic({ apiKey: AI_SDK_KEY, baseURL: `${front.url}/v1` })
    const { Output } = await import('ai')
    const { z } = await import('zod')
    const result = await generateText({ model: anthropic('my-fake-model'), prompt: 'answer?', output: Output.object({ schema: z.object({ answer: z.number() }) }), maxOutputTokens: 100, maxRetries: 0 })
    expect(result.output).toEqual({ answer: 42 })
    expect(await transcriptLines(file)).toMatchObject([{ response: { content: [{ type: 'text', text: '{"answer":42}' }], finishReason: 'stop' } }])
  })
})

describe('RecordMode options', () => {
  test('originFor maps each dialect to its provider; a dialect without one is the brain’s', () => {
    const mode = new RecordMode({ upstream: { anthropic: 'https://api.anthropic.com' }, record: 'x.jsonl' })
    expect(mode.originFor('anthropic-messages')).toBe('https://api.anthropic.com')
    expect(mode.originFor('openai-chat')).toBeUndefined()
    expect(mode.originFor('openai-embeddings')).toBeUndefined()
  })

  test('validateRecordOptions throws TypeErrors naming the owner, the option and what was expected', () => {
    const check = (upstream: unknown, record: unknown) => () => validateRecordOptions('FakeProxy', upstream, record)
    expect(check(undefined, undefined)).not.toThrow()
    expect(check({ openai: 'https://api.openai.com', anthropic: 'http://127.0.0.1:9/base' }, 'x.jsonl')).not.toThrow()
    expect(check(undefined, 'x.jsonl')).toThrow(/^\[agent-doubles\] FakeProxy: option record needs option upstream/)
    expect(check({ openai: 'https://api.openai.com' }, undefined)).toThrow(/FakeProxy: option upstream needs option record/)
    expect(check('https://api.openai.com', 'x.jsonl')).toThrow(/FakeProxy: option upstream must be \{ openai\?: origin, anthropic\?: origin \}, got "https/)
    expect(check({ gemini: 'https://g.example' }, 'x.jsonl')).toThrow(/FakeProxy: unknown upstream "gemini"; expected one of openai, anthropic/)
    expect(check({ openai: 'api.openai.com' }, 'x.jsonl')).toThrow(/FakeProxy: option upstream.openai must be an http\(s\) URL.*got "api.openai.com"/)
    expect(check({ anthropic: 'ftp://x.example' }, 'x.jsonl')).toThrow(TypeError)
    expect(check({ openai: 'https://api.openai.com?x=1' }, 'x.jsonl')).toThrow(/upstream.openai/)
    expect(check({}, 'x.jsonl')).toThrow(/naming at least one/)
    expect(check({ openai: 'https://api.openai.com' }, 42)).toThrow(/FakeProxy: option record must be a transcript file path or a writable stream, got 42/)
    expect(() => new RecordMode({} as never)).toThrow(TypeError)
  })
})
