/**
 * SPEC §10.1 conformance: the fake's bytes against real recorded traffic (test/recordings/),
 * per dialect × mode — event names and order, field sets, value types, id formats, headers.
 * Raw HTTP on purpose: what is compared is the wire itself. The differences allowed are
 * exactly those listed in test/recordings/README.md.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import type { LLM, ModelRequest, StreamEvent, StreamOptions } from '../../src/llm/types.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { wireId } from '../../src/wire/wire-ids.js'
import OpenAI from 'openai'
import { listLLM, startProxy, text, toolCall } from './helpers.js'

const recordings = new URL('../recordings/', import.meta.url)
const recordedJson = (file: string): unknown => JSON.parse(readFileSync(new URL(file, recordings), 'utf8'))
const recordedChunks = (file: string): Record<string, unknown>[] =>
  readFileSync(new URL(file, recordings), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)

/** Id formats of real traffic. */
const FORMAT = {
  chatcmpl: /^chatcmpl-[A-Za-z0-9]{29}$/,
  openaiCall: /^call_[A-Za-z0-9]{24}$/,
  resp: /^resp_[0-9a-f]{50}$/,
  responseMessage: /^msg_[0-9a-f]{50}$/,
  functionCallItem: /^fc_[0-9a-f]{50}$/,
  anthropicMessage: /^msg_01[1-9A-HJ-NP-Za-km-z]{22}$/,
  toolUse: /^toolu_01[1-9A-HJ-NP-Za-km-z]{22}$/,
  openaiRequest: /^req_[0-9a-f]{32}$/,
  anthropicRequest: /^req_011C[1-9A-HJ-NP-Za-km-z]{20}$/,
  fingerprint: /^fp_[0-9a-f]{10}$/,
}

/** Paths the fake leaves out on purpose (see "Differences kept" in test/recordings/README.md). */
const KEPT = new Set([
  'obfuscation',
  'billing',
  'tool_usage',
  'reasoning.context',
  'reasoning.mode',
  'response.billing',
  'response.tool_usage',
  'response.reasoning.context',
  'response.reasoning.mode',
])

/**
 * Every path of `value` with the JSON type found there (`a.b`, arrays as `a[]`). Objects under
 * user-defined keys (tool parameters, metadata) are not descended into.
 */
function shape(value: unknown, path = '', out = new Map<string, Set<string>>()): Map<string, Set<string>> {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
  if (path !== '') out.set(path, (out.get(path) ?? new Set()).add(type))
  if (/(^|\.)(parameters|metadata|input|tools\[\])$/.test(path)) return out
  if (Array.isArray(value)) for (const item of value) shape(item, `${path}[]`, out)
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) shape(item, path === '' ? key : `${path}.${key}`, out)
  }
  return out
}

/**
 * Fails naming each path that is only on one side, or whose JSON type differs. A path the fake
 * has may also come from `seenElsewhere` (other recordings of the same object: real traffic
 * gained fields over time, and older recordings lack them).
 */
function expectSameShape(fake: unknown, recorded: unknown, where: string, seenElsewhere: unknown[] = []): void {
  const ours = shape(fake)
  const theirs = shape(recorded)
  for (const other of seenElsewhere) for (const [path, types] of shape(other)) if (!theirs.has(path) && ours.has(path)) theirs.set(path, types)
  const missing = [...theirs.keys()].filter((path) => !ours.has(path) && !KEPT.has(path) && ![...KEPT].some((kept) => path.startsWith(`${kept}.`)))
  const invented = [...ours.keys()].filter((path) => !theirs.has(path))
  // A value that is null on one side may be set on the other (an unset option); other types must agree.
  const mistyped = [...ours.keys()].filter((path) => {
    const a = ours.get(path)
    const b = theirs.get(path)
    if (!a || !b) return false
    const concrete = (types: Set<string>): string[] => [...types].filter((type) => type !== 'null')
    return concrete(a).length > 0 && concrete(b).length > 0 && !concrete(a).some((type) => concrete(b).includes(type))
  })
  expect({ where, missing, invented, mistyped }).toEqual({ where, missing: [], invented: [], mistyped: [] })
}

/** Runs of the same name collapsed, pings dropped: the order real traffic fixes. */
function order(names: string[]): string[] {
  return names.filter((name) => name !== 'ping').filter((name, i, all) => name !== all[i - 1])
}

interface Sse {
  headers: Headers
  frames: { event: string | undefined; data: string }[]
}

async function post(proxy: FakeProxy, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}

async function sse(proxy: FakeProxy, path: string, body: unknown, headers?: Record<string, string>): Promise<Sse> {
  const answer = await post(proxy, path, body, headers)
  const raw = await answer.text()
  expect(raw.endsWith('\n\n')).toBe(true)
  const frames = raw
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? ''
      return { event, data }
    })
  return { headers: answer.headers, frames }
}

const json = (frames: Sse['frames']): Record<string, unknown>[] => frames.map((frame) => JSON.parse(frame.data) as Record<string, unknown>)

/**
 * A stream of typed events (Responses, Anthropic) against a recording: each `event:` line
 * names its payload's `type`, the order of types matches, and each type's fields match.
 */
function expectEventsLike(frames: Sse['frames'], recording: string, where: string): Record<string, unknown>[] {
  const ours = json(frames)
  const theirs = recordedChunks(recording)
  expect(frames.map((frame) => frame.event)).toEqual(ours.map((event) => event.type))
  expect(order(ours.map((event) => String(event.type)))).toEqual(order(theirs.map((event) => String(event.type))))
  for (const type of new Set(theirs.map((event) => String(event.type)))) {
    expectSameShape(ours.find((event) => event.type === type), theirs.find((event) => event.type === type), `${where} ${type}`)
  }
  return ours
}

function expectOpenaiHeaders(headers: Headers): void {
  expect(headers.get('x-request-id')).toMatch(FORMAT.openaiRequest)
  expect(headers.get('openai-processing-ms')).toMatch(/^\d+$/)
  expect(headers.get('openai-version')).toBe('2020-10-01')
  for (const name of ['limit', 'remaining']) {
    expect(headers.get(`x-ratelimit-${name}-requests`)).toMatch(/^\d+$/)
    expect(headers.get(`x-ratelimit-${name}-tokens`)).toMatch(/^\d+$/)
  }
  expect(headers.get('x-ratelimit-reset-requests')).toMatch(/^\d+(\.\d+)?m?s$/)
  expect(headers.get('x-ratelimit-reset-tokens')).toMatch(/^\d+(\.\d+)?m?s$/)
}

function expectAnthropicHeaders(headers: Headers): void {
  expect(headers.get('request-id')).toMatch(FORMAT.anthropicRequest)
  for (const budget of ['requests', 'tokens', 'input-tokens', 'output-tokens']) {
    expect(headers.get(`anthropic-ratelimit-${budget}-limit`)).toMatch(/^\d+$/)
    expect(headers.get(`anthropic-ratelimit-${budget}-remaining`)).toMatch(/^\d+$/)
    expect(headers.get(`anthropic-ratelimit-${budget}-reset`)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  }
}

/** An LLM whose stream fails after its first text delta. */
const failingLLM: LLM = {
  async generate() {
    throw new Error('unused')
  },
  async *stream(_request: ModelRequest): AsyncGenerator<StreamEvent> {
    yield { type: 'text-delta', text: 'O' }
    throw new Error('upstream went away')
  },
}

const chatBody = { model: 'gpt-4.1-nano', messages: [{ role: 'user', content: 'hi' }] }
const chatStream = { ...chatBody, stream: true, stream_options: { include_usage: true } }
const weatherTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }

describe('OpenAI Chat against recorded traffic', () => {
  test('JSON', async () => {
    const proxy = await startProxy({ llm: listLLM(text('OK')) })
    const answer = await post(proxy, '/v1/chat/completions', chatBody)
    const body = (await answer.json()) as Record<string, unknown>
    expectSameShape(body, recordedJson('openai-chat/text.json'), 'chat JSON')
    expect(body.id).toMatch(FORMAT.chatcmpl)
    expect((recordedJson('openai-chat/text.json') as { id: string }).id).toMatch(FORMAT.chatcmpl)
    expect(body.system_fingerprint).toMatch(FORMAT.fingerprint)
    expectOpenaiHeaders(answer.headers)
  })

  const kind = (chunk: Record<string, unknown>): string => {
    const choice = (chunk.choices as Record<string, unknown>[])[0]
    if (!choice) return 'usage'
    const delta = choice.delta as Record<string, unknown>
    if (choice.finish_reason) return 'finish'
    if (delta.role) return 'role'
    const calls = delta.tool_calls as Record<string, unknown>[] | undefined
    if (calls) return calls[0].id ? 'tool-open' : 'tool-arguments'
    return 'content'
  }

  test('SSE text', async () => {
    const proxy = await startProxy({ llm: listLLM(text('Hello there')) })
    const { frames, headers } = await sse(proxy, '/v1/chat/completions', chatStream)
    expect(frames.at(-1)?.data).toBe('[DONE]')
    expect(frames.every((frame) => frame.event === undefined)).toBe(true)
    const ours = json(frames.slice(0, -1))
    const theirs = recordedChunks('openai-chat/text.chunks.jsonl')
    expect(order(ours.map(kind))).toEqual(order(theirs.map(kind)))
    for (const k of ['role', 'content', 'finish', 'usage']) {
      expectSameShape(ours.find((c) => kind(c) === k), theirs.find((c) => kind(c) === k), `chat chunk ${k}`)
    }
    expect(new Set(ours.map((chunk) => chunk.id)).size).toBe(1)
    expect(ours[0].id).toMatch(FORMAT.chatcmpl)
    expectOpenaiHeaders(headers)
  })

  test('SSE tool call: a generated id takes the call_ format; ids a script gives are kept', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('get_weather', { location: 'Tokyo' }, 'call_1_1'), toolCall('get_weather', {}, 'my-own-id')) })
    const { frames } = await sse(proxy, '/v1/chat/completions', { ...chatStream, tools: [weatherTool] })
    const ours = json(frames.slice(0, -1))
    const theirs = recordedChunks('openai-chat/tool-call.chunks.jsonl')
    expect(order(ours.map(kind))).toEqual(order(theirs.map(kind)))
    for (const k of ['role', 'tool-open', 'tool-arguments', 'finish', 'usage']) {
      expectSameShape(ours.find((c) => kind(c) === k), theirs.find((c) => kind(c) === k), `chat chunk ${k}`)
    }
    const opening = ours.find((c) => kind(c) === 'tool-open') as { choices: { delta: { tool_calls: { id: string }[] } }[] }
    const id = opening.choices[0].delta.tool_calls[0].id
    expect(id).toMatch(FORMAT.openaiCall)
    // Deterministic: the same proxy request seed gives the same id; the recorded proxy request says so.
    expect(proxy.requests[0].response?.content[0]).toMatchObject({ type: 'tool-call', id })

    const second = json((await sse(proxy, '/v1/chat/completions', { ...chatStream, tools: [weatherTool] })).frames.slice(0, -1))
    const kept = second.find((c) => kind(c) === 'tool-open') as typeof opening
    expect(kept.choices[0].delta.tool_calls[0].id).toBe('my-own-id')
  })

  test('errors', async () => {
    const proxy = await startProxy()
    proxy.providerError('context_length_exceeded')
    const answer = await post(proxy, '/v1/chat/completions', chatBody)
    expect(answer.status).toBe(400)
    expectSameShape(await answer.json(), recordedJson('openai-chat/error.json'), 'chat error')
    expectOpenaiHeaders(answer.headers)
  })
})

describe('OpenAI Responses against recorded traffic', () => {
  const body = { model: 'gpt-4o-mini', input: 'hi' }

  test('JSON', async () => {
    const proxy = await startProxy({ llm: listLLM(text('OK')) })
    const answer = await post(proxy, '/v1/responses', body)
    const ours = (await answer.json()) as { id: string; output: { id: string }[] }
    expectSameShape(ours, recordedJson('openai-responses/text.json'), 'responses JSON')
    expect(ours.id).toMatch(FORMAT.resp)
    expect(ours.output[0].id).toMatch(FORMAT.responseMessage)
    expectOpenaiHeaders(answer.headers)
  })

  test('SSE text', async () => {
    const proxy = await startProxy({ llm: listLLM(text('OK')) })
    const { frames, headers } = await sse(proxy, '/v1/responses', { ...body, stream: true })
    const ours = expectEventsLike(frames, 'openai-responses/text.chunks.jsonl', 'responses')
    expect(ours.map((event) => event.sequence_number)).toEqual(ours.map((_, i) => i))
    expectOpenaiHeaders(headers)
  })

  test('SSE tool call', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('get_weather', { city: 'Beijing' }, 'call_1_1')) })
    const { frames } = await sse(proxy, '/v1/responses', { ...body, stream: true, tools: [{ type: 'function', name: 'get_weather', parameters: {} }] })
    const ours = expectEventsLike(frames, 'openai-responses/tool-call.chunks.jsonl', 'responses')
    const item = ours.find((event) => event.type === 'response.output_item.done')?.item as { id: string; call_id: string }
    expect(item.id).toMatch(FORMAT.functionCallItem)
    expect(item.call_id).toMatch(FORMAT.openaiCall)
  })

  test('errors: a failing stream sends the error event, then response.failed', async () => {
    const proxy = await startProxy({ llm: failingLLM })
    const { frames } = await sse(proxy, '/v1/responses', { ...body, stream: true })
    const ours = json(frames)
    const theirs = recordedChunks('openai-responses/error.chunks.jsonl')
    expect(ours.slice(-2).map((event) => event.type)).toEqual(['error', 'response.failed'])
    expect(ours.map((event) => event.sequence_number)).toEqual(ours.map((_, i) => i))
    expectSameShape(ours.at(-2), theirs.at(-2), 'responses error')
    const newer = recordedChunks('openai-responses/text.chunks.jsonl').filter((event) => event.type === 'response.in_progress')
    expectSameShape(ours.at(-1), theirs.at(-1), 'responses failed', newer)
    expect(ours.at(-1)).toMatchObject({ response: { status: 'failed', error: { code: 'server_error', message: expect.stringContaining('upstream went away') } } })
  })
})

describe('a failing Responses stream through the SDK', () => {
  test('openai sees the error event and response.failed (v6 yields them, v7 throws the error)', async () => {
    const proxy = await startProxy({ llm: failingLLM })
    const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const types: string[] = []
    let thrown: unknown
    try {
      for await (const event of await client.responses.create({ model: 'm', input: 'hi', stream: true })) types.push(event.type)
    } catch (error) {
      thrown = error
    }
    if (thrown === undefined) expect(types.slice(-2)).toEqual(['error', 'response.failed'])
    else expect(String(thrown)).toContain('upstream went away')
    expect(types).toContain('response.output_text.delta')
  })
})

describe('Anthropic Messages against recorded traffic', () => {
  const body = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }
  const anthropicHeaders = { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' }

  test('JSON (tool call)', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('updateIssueList', {}, 'call_1_1', 'Okay.')) })
    const answer = await post(proxy, '/v1/messages', body, anthropicHeaders)
    const ours = (await answer.json()) as { id: string; content: { id?: string }[] }
    // The JSON recording predates usage.inference_geo; the newer stream recording's message has it (SPEC §21).
    const newer = (recordedChunks('anthropic/text.chunks.jsonl')[0] as { message: unknown }).message
    expectSameShape(ours, recordedJson('anthropic/tool-call.json'), 'anthropic JSON', [newer])
    expect(ours.id).toMatch(FORMAT.anthropicMessage)
    expect(ours.content[1].id).toMatch(FORMAT.toolUse)
    expectAnthropicHeaders(answer.headers)
  })

  test('SSE text', async () => {
    const proxy = await startProxy({ llm: listLLM(text('Hello there')) })
    const { frames, headers } = await sse(proxy, '/v1/messages', { ...body, stream: true }, anthropicHeaders)
    const ours = expectEventsLike(frames, 'anthropic/text.chunks.jsonl', 'anthropic')
    expect((ours[0].message as { id: string }).id).toMatch(FORMAT.anthropicMessage)
    expectAnthropicHeaders(headers)
  })

  test('SSE tool call', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('updateIssueList', {}, 'call_1_1', 'I will.')) })
    const { frames } = await sse(proxy, '/v1/messages', { ...body, stream: true }, anthropicHeaders)
    const ours = json(frames)
    const theirs = recordedChunks('anthropic/tool-call.chunks.jsonl')
    expect(order(ours.map((event) => String(event.type)))).toEqual(order(theirs.map((event) => String(event.type))))
    const blockStart = (events: Record<string, unknown>[], type: string): unknown =>
      events.find((event) => event.type === 'content_block_start' && (event.content_block as { type: string }).type === type)
    expectSameShape(blockStart(ours, 'tool_use'), blockStart(theirs, 'tool_use'), 'anthropic tool_use start')
    expectSameShape(ours.find((e) => e.type === 'message_delta'), theirs.find((e) => e.type === 'message_delta'), 'anthropic message_delta')
    expect(((blockStart(ours, 'tool_use') as { content_block: { id: string } }).content_block.id)).toMatch(FORMAT.toolUse)
  })

  test('a failing stream ends with an error event carrying the request id', async () => {
    const proxy = await startProxy({ llm: failingLLM })
    const { frames, headers } = await sse(proxy, '/v1/messages', { ...body, stream: true }, anthropicHeaders)
    expect(frames.at(-1)?.event).toBe('error')
    expect(JSON.parse(frames.at(-1)?.data ?? '')).toEqual({
      type: 'error',
      error: { type: 'api_error', message: expect.stringContaining('upstream went away') },
      request_id: headers.get('request-id'),
    })
  })

  test('a brain failing after it accepted the call, before any event, fails the stream after its opening frame', async () => {
    const acceptedThenFailing: LLM = {
      async generate() {
        throw new Error('unused')
      },
      async *stream(_request: ModelRequest, options?: StreamOptions): AsyncGenerator<StreamEvent> {
        options?.onAccepted?.()
        throw new Error('upstream went away')
      },
    }
    const proxy = await startProxy({ llm: acceptedThenFailing })
    const { frames, headers } = await sse(proxy, '/v1/messages', { ...body, stream: true }, anthropicHeaders)
    expect(frames.map((frame) => frame.event)).toEqual(['message_start', 'error'])
    expect(JSON.parse(frames.at(-1)?.data ?? '')).toMatchObject({ error: { message: expect.stringContaining('upstream went away') }, request_id: headers.get('request-id') })
  })

  test('errors, and unknown routes answered in Anthropic shape when the request is Anthropic', async () => {
    const proxy = await startProxy()
    proxy.providerError('invalid_api_key')
    const answer = await post(proxy, '/v1/messages', body, anthropicHeaders)
    expect(answer.status).toBe(401)
    const ours = (await answer.json()) as { request_id: string }
    expectSameShape(ours, recordedJson('anthropic/error.json'), 'anthropic error')
    expect(ours.request_id).toBe(answer.headers.get('request-id'))

    const unknown = await post(proxy, '/v1/messages/batches/oops', {}, anthropicHeaders)
    expect(unknown.status).toBe(404)
    // The fake's own 404 has the recorded error's shape, request_id included (SPEC §21).
    expectSameShape(await unknown.json(), recordedJson('anthropic/error.json'), 'anthropic 404')
    const byKey = await fetch(`${proxy.url}/v1/files`, { headers: { 'x-api-key': 'k' } })
    expect(await byKey.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
    const openai = await fetch(`${proxy.url}/v1/files`, { headers: { authorization: 'Bearer k' } })
    expect(await openai.json()).toMatchObject({ error: { type: 'not_found_error' } })
  })
})

describe('ids', () => {
  test('the same seed gives the same id in each format', () => {
    expect(wireId('chat-completion', 'fake_000001')).toBe(wireId('chat-completion', 'fake_000001'))
    expect(wireId('chat-completion', 'fake_000001')).not.toBe(wireId('chat-completion', 'fake_000002'))
    expect(wireId('openai-call', 'x')).toMatch(FORMAT.openaiCall)
    expect(wireId('anthropic-request', 'x')).toMatch(FORMAT.anthropicRequest)
  })

  test('a proxy gives the same ids however many proxies came before it, and keeps its memory to itself', async () => {
    const run = async (answer: string): Promise<{ ids: string[]; proxy: FakeProxy }> => {
      const proxy = await startProxy({ llm: listLLM(toolCall('f', {}, 'call_1_1'), text(answer)) })
      const chat = (await (await post(proxy, '/v1/chat/completions', chatBody)).json()) as { id: string; choices: { message: { tool_calls: { id: string }[] } }[] }
      const response = (await (await post(proxy, '/v1/responses', { model: 'm', input: 'hi' })).json()) as { id: string }
      return { ids: [chat.id, chat.choices[0].message.tool_calls[0].id, response.id], proxy }
    }
    const first = await run('from the first proxy')
    const second = await run('from the second proxy')
    expect(second.ids).toEqual(first.ids)
    // The same response id on both: each proxy continues its own conversation.
    await post(first.proxy, '/v1/responses', { model: 'm', input: 'again', previous_response_id: first.ids[2] })
    expect(first.proxy.requests.at(-1)?.request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'from the first proxy' }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    ])
  })
})
