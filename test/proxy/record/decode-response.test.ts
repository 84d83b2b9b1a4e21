/**
 * The upstream-answer decoders, fed with bodies a real FakeProxy serves (JSON and SSE, every
 * model dialect): each must give back exactly the neutral answer the proxy's brain gave.
 * Hand-written bodies cover what the fake never sends (framing variants, errors, cut streams).
 */
import { describe, expect, test } from 'vitest'
import type { ModelResponse, Part } from '../../../src/llm/types.js'
import type { Dialect } from '../../../src/server/types.js'
import { decodeUpstreamResponse } from '../../../src/upstream/decode-response.js'
import { parseSse } from '../../../src/upstream/sse-events.js'
import { listLLM, startProxy } from '../helpers.js'

const usage = { inputTokens: 12, outputTokens: 34 }
const answers: Record<string, ModelResponse> = {
  text: { content: [{ type: 'text', text: 'Hello from the brain, in several deltas.' }], finishReason: 'stop', usage },
  'text then a tool call': {
    content: [
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-call', id: 'call_w1', name: 'get_weather', args: { city: 'Paris', days: 3, units: { temp: 'C' } } },
    ],
    finishReason: 'tool-calls',
    usage,
  },
  'two parallel tool calls': {
    content: [
      { type: 'tool-call', id: 'call_a', name: 'get_weather', args: { city: 'Paris' } },
      { type: 'tool-call', id: 'call_b', name: 'get_time', args: { zone: 'Europe/Paris' } },
    ],
    finishReason: 'tool-calls',
    usage,
  },
  'reasoning then text': {
    content: [
      { type: 'reasoning', text: 'The user greets me; greet back.' },
      { type: 'text', text: 'Hi!' },
    ],
    finishReason: 'stop',
    usage,
  },
  'cut at the length limit': { content: [{ type: 'text', text: 'This answer was cut' }], finishReason: 'length', usage },
  'content filtered': { content: [{ type: 'text', text: 'I cannot help.' }], finishReason: 'content-filter', usage },
}

/** Chat Completions has no field for reasoning: the fake drops it, so the decoded answer has none. */
function expectedFor(dialect: Dialect, answer: ModelResponse): Part[] {
  return dialect === 'openai-chat' ? answer.content.filter((part) => part.type !== 'reasoning') : answer.content
}

const requests: Record<string, { path: string; body: (stream: boolean) => unknown }> = {
  'openai-chat': {
    path: '/v1/chat/completions',
    body: (stream) => ({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream, ...(stream ? { stream_options: { include_usage: true } } : {}) }),
  },
  'openai-responses': { path: '/v1/responses', body: (stream) => ({ model: 'gpt-test', input: 'hi', stream }) },
  'anthropic-messages': { path: '/v1/messages', body: (stream) => ({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], stream }) },
}

async function capture(url: string, body: unknown): Promise<{ contentType: string; body: Uint8Array }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status).toBe(200)
  return { contentType: res.headers.get('content-type') ?? '', body: new Uint8Array(await res.arrayBuffer()) }
}

describe('decoding what a FakeProxy serves gives back the brain’s answer', () => {
  for (const dialect of Object.keys(requests) as Dialect[]) {
    for (const stream of [false, true]) {
      for (const [name, answer] of Object.entries(answers)) {
        test(`${dialect} ${stream ? 'SSE' : 'JSON'}: ${name}`, async () => {
          const proxy = await startProxy({ llm: listLLM(answer) })
          const { path, body } = requests[dialect]
          const captured = await capture(`${proxy.url}${path}`, body(stream))
          expect(captured.contentType).toMatch(stream ? /text\/event-stream/ : /application\/json/)
          const decoded = decodeUpstreamResponse(dialect, captured.contentType, captured.body)
          expect(decoded).toEqual({
            content: expectedFor(dialect, answer),
            finishReason: answer.finishReason,
            usage: answer.usage,
            model: 'gpt-test',
            id: expect.any(String),
          })
        })
      }
    }
  }

  test('a Chat stream without the usage chunk decodes with zero counts', async () => {
    const proxy = await startProxy({ llm: listLLM(answers.text) })
    const captured = await capture(`${proxy.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true })
    expect(decodeUpstreamResponse('openai-chat', captured.contentType, captured.body)).toMatchObject({
      content: answers.text.content,
      usage: { inputTokens: 0, outputTokens: 0 },
    })
  })
})

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)
const SSE = 'text/event-stream; charset=utf-8'
const chat = (fields: Record<string, unknown>): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-9', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', ...fields })}\n\n`

describe('OpenAI Chat streams as real providers send them', () => {
  test('interleaved parallel tool calls are rebuilt by index from split arguments', () => {
    const body = [
      chat({ choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'a', arguments: '' } }] } }] }),
      chat({ choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'b', arguments: '{"y":' } }] } }] }),
      chat({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"x": "1' } }] } }] }),
      chat({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '2"}' } }] } }] }),
      chat({ choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '2}' } }] } }] }),
      chat({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
      chat({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } }),
      'data: [DONE]\n\n',
    ].join('')
    expect(decodeUpstreamResponse('openai-chat', SSE, bytes(body))).toEqual({
      content: [
        { type: 'tool-call', id: 'call_1', name: 'a', args: { x: '12' } },
        { type: 'tool-call', id: 'call_2', name: 'b', args: { y: 2 } },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 5, outputTokens: 9 },
      model: 'gpt-4o',
      id: 'chatcmpl-9',
    })
  })

  test('CRLF framing, comment lines and a refusal delta', () => {
    const body = [
      ': keep-alive\r\n\r\n',
      chat({ choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null } }] }).replace(/\n/g, '\r\n'),
      chat({ choices: [{ index: 0, delta: { refusal: 'I will not.' } }] }),
      chat({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    ].join('')
    expect(decodeUpstreamResponse('openai-chat', SSE, bytes(body))).toMatchObject({
      content: [{ type: 'text', text: 'I will not.' }],
      finishReason: 'content-filter',
    })
  })

  test('an error frame, a stream cut before its finish reason, and a non-answer are not turns', () => {
    const start = chat({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' } }] })
    expect(decodeUpstreamResponse('openai-chat', SSE, bytes(`${start}data: {"error":{"message":"boom","type":"server_error"}}\n\n`))).toBeUndefined()
    expect(decodeUpstreamResponse('openai-chat', SSE, bytes(start))).toBeUndefined()
    expect(decodeUpstreamResponse('openai-chat', 'application/json', bytes('{"error":{"message":"bad"}}'))).toBeUndefined()
    expect(decodeUpstreamResponse('openai-chat', 'application/json', bytes('not json'))).toBeUndefined()
  })
})

describe('Anthropic and Responses streams as real providers send them', () => {
  const event = (data: Record<string, unknown>): string => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`
  const messageStart = event({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 10, output_tokens: 1 } } })

  test('tool input rebuilt from input_json_delta fragments; message_delta usage overwrites', () => {
    const body = [
      messageStart,
      event({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Need the ' } }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'weather.' } }),
      event({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
      event({ type: 'content_block_stop', index: 0 }),
      event({ type: 'ping' }),
      event({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } }),
      event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } }),
      event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } }),
      event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: 'ris"}' } }),
      event({ type: 'content_block_stop', index: 1 }),
      event({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } }),
      event({ type: 'message_stop' }),
    ].join('')
    expect(decodeUpstreamResponse('anthropic-messages', SSE, bytes(body))).toEqual({
      content: [
        { type: 'reasoning', text: 'Need the weather.' },
        { type: 'tool-call', id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' } },
      ],
      finishReason: 'tool-calls',
      usage: { inputTokens: 10, outputTokens: 20 },
      model: 'claude-x',
      id: 'msg_1',
    })
  })

  test('an Anthropic error event or a missing message_stop is not a turn', () => {
    const text = event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'hi' } })
    const error = event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
    expect(decodeUpstreamResponse('anthropic-messages', SSE, bytes(messageStart + text + error))).toBeUndefined()
    expect(decodeUpstreamResponse('anthropic-messages', SSE, bytes(messageStart + text))).toBeUndefined()
  })

  test('a Responses stream that failed is not a turn; a redacted Anthropic block is skipped', () => {
    const failed = event({ type: 'response.failed', response: { id: 'resp_1', status: 'failed', output: [], error: { code: 'server_error', message: 'x' } } })
    expect(decodeUpstreamResponse('openai-responses', SSE, bytes(failed))).toBeUndefined()
    const message = { type: 'message', id: 'msg_2', model: 'claude-x', content: [{ type: 'redacted_thinking', data: 'xx' }, { type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 2 } }
    expect(decodeUpstreamResponse('anthropic-messages', 'application/json', bytes(JSON.stringify(message)))).toMatchObject({ content: [{ type: 'text', text: 'ok' }], finishReason: 'stop' })
  })

  test('embeddings and the model list are never model turns', () => {
    expect(decodeUpstreamResponse('openai-embeddings', 'application/json', bytes('{"object":"list","data":[]}'))).toBeUndefined()
    expect(decodeUpstreamResponse('openai-models', 'application/json', bytes('{"object":"list","data":[]}'))).toBeUndefined()
  })
})

describe('parseSse', () => {
  test('joins data lines, keeps event names, drops an event the body ends inside', () => {
    expect(parseSse('event: a\ndata: 1\ndata: 2\n\r\rdata: x\n\ndata: unfinished\n')).toEqual([{ event: 'a', data: '1\n2' }, { data: 'x' }])
  })
})
