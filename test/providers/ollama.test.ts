/**
 * Ollama through the `ollama` client, unchanged, with its `host` on the FakeProxy: chat and
 * generate in JSON and NDJSON streams, a tool loop, structured output, usage, embeddings, the
 * model list, errors; and bad input on every Ollama route in Ollama's `{ error }` shape.
 */
import { Ollama, type Message } from 'ollama'
import { describe, expect, test } from 'vitest'
import { scriptedLLM, toolCall } from '../../src/index.js'
import { CANNED_REPLY } from '../../src/server/default-brain.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { raw, startProxy } from '../proxy/helpers.js'
import { parses } from './parses.js'

const ollamaFor = (proxy: FakeProxy): Ollama => new Ollama({ host: proxy.url })

const weather = { type: 'function', function: { name: 'get_weather', description: 'weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }

describe('Ollama through the ollama client', () => {
  test('chat without streaming answers the message with token counts', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hi from llama'], { usage: { inputTokens: 12, outputTokens: 4 } }) })
    const answer = await ollamaFor(proxy).chat({
      model: 'llama3.2',
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello' }],
      options: { temperature: 0.1, num_predict: 32 },
      stream: false,
    })
    expect(answer.message).toEqual({ role: 'assistant', content: 'Hi from llama' })
    expect(answer).toMatchObject({ model: 'llama3.2', done: true, done_reason: 'stop', prompt_eval_count: 12, eval_count: 4 })
    expect(proxy.requests[0]).toMatchObject({
      path: '/api/chat',
      dialect: 'ollama-chat',
      model: 'llama3.2',
      stream: false,
      request: { system: 'Be brief.', temperature: 0.1, maxTokens: 32, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] },
    })
  })

  test('a streamed chat arrives as NDJSON lines ending with the done line', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three'], { usage: { inputTokens: 3, outputTokens: 3 } }) })
    const parts = []
    for await (const part of await ollamaFor(proxy).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'count' }], stream: true })) parts.push(part)
    expect(parts.map((part) => part.message.content).join('')).toBe('one two three')
    expect(parts.length).toBeGreaterThan(2)
    expect(parts.at(-1)).toMatchObject({ done: true, done_reason: 'stop', eval_count: 3 })
    expect(parts.slice(0, -1).every((part) => part.done === false)).toBe(true)
  })

  test('a tool loop: tool_calls with object arguments, the tool message reaches the script by name', async () => {
    const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }, 'call_p'), 'Sunny in Paris.'])
    const proxy = await startProxy({ llm })
    const ollama = ollamaFor(proxy)
    const messages: Message[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const first = await ollama.chat({ model: 'llama3.2', messages, tools: [weather], stream: false })
    expect(first.message.tool_calls).toEqual([{ id: 'call_p', function: { index: 0, name: 'get_weather', arguments: { city: 'Paris' } } }])
    messages.push(first.message, { role: 'tool', content: '21 degrees', tool_name: 'get_weather' })
    const second = await ollama.chat({ model: 'llama3.2', messages, tools: [weather], stream: false })
    expect(second.message.content).toBe('Sunny in Paris.')
    expect(llm.requests[0].tools?.[0]).toMatchObject({ name: 'get_weather', parameters: weather.function.parameters })
    expect(llm.requests[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_p', name: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', id: 'call_p', name: 'get_weather', result: '21 degrees' }] },
    ])
  })

  test('a streamed tool call arrives whole on one line', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Rome' })]) })
    const calls = []
    for await (const part of await ollamaFor(proxy).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'Rome?' }], tools: [weather], stream: true })) {
      calls.push(...(part.message.tool_calls ?? []))
    }
    expect(calls.map((call) => call.function)).toEqual([{ index: 0, name: 'get_weather', arguments: { city: 'Rome' } }])
  })

  test('structured output: format with a JSON schema is answered with a matching value by the default brain', async () => {
    const proxy = await startProxy()
    const schema = { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name', 'age'] }
    const answer = await ollamaFor(proxy).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'a person' }], format: schema, stream: false })
    expect(JSON.parse(answer.message.content)).toEqual({ name: expect.any(String), age: expect.any(Number) })
    expect(proxy.requests[0].request.responseFormat).toEqual({ type: 'json', schema })
  })

  test('generate, in JSON and as a stream', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Once upon a time', 'The end'], { usage: { inputTokens: 2, outputTokens: 4 } }) })
    const ollama = ollamaFor(proxy)
    const answer = await ollama.generate({ model: 'llama3.2', prompt: 'Tell a story', system: 'Be short.', stream: false })
    expect(answer).toMatchObject({ response: 'Once upon a time', done: true, prompt_eval_count: 2, eval_count: 4 })
    const pieces = []
    for await (const part of await ollama.generate({ model: 'llama3.2', prompt: 'End it', stream: true })) pieces.push(part.response)
    expect(pieces.join('')).toBe('The end')
    expect(proxy.requests.map((request) => [request.dialect, request.stream, request.request.system])).toEqual([['ollama-generate', false, 'Be short.'], ['ollama-generate', true, undefined]])
  })

  test('embed answers one vector per input; the legacy embeddings route one vector', async () => {
    const proxy = await startProxy()
    const ollama = ollamaFor(proxy)
    const { embeddings } = await ollama.embed({ model: 'nomic-embed-text', input: ['cat', 'dog', 'cat'] })
    expect(embeddings).toHaveLength(3)
    expect(embeddings[0]).toEqual(embeddings[2])
    expect(embeddings[0]).not.toEqual(embeddings[1])
    const legacy = await ollama.embeddings({ model: 'nomic-embed-text', prompt: 'cat' })
    expect(legacy.embedding).toEqual(embeddings[0])
    proxy.use(scriptedLLM([], { embed: (text) => [text.length] }))
    expect((await ollama.embed({ model: 'nomic-embed-text', input: 'four' })).embeddings).toEqual([[4]])
  })

  test('list reads /api/tags without using a scripted turn', async () => {
    const llm = scriptedLLM(['unused'])
    const proxy = await startProxy({ llm })
    const { models } = await ollamaFor(proxy).list()
    expect(models.map((model) => model.name)).toEqual(['llama3.2:latest', 'qwen3:8b', 'nomic-embed-text:latest'])
    expect(models[0].details).toMatchObject({ format: 'gguf', family: 'llama' })
    expect(llm.callCount).toBe(0)
  })

  test('an error is a ResponseError with the status and Ollama’s message; the client does not retry', async () => {
    const proxy = await startProxy({ agents: ['researcher'] })
    proxy.refuse('rate_limited', { message: 'slow down' })
    const error = await ollamaFor(proxy).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: false }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'ResponseError', status_code: 429, error: 'slow down' })
    expect(proxy.refusals).toHaveLength(1)
    const answer = await ollamaFor(proxy).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: false })
    expect(answer.message.content).toBe(CANNED_REPLY)
  })

  test('a brain failing mid-stream ends the stream with an error line the client throws', async () => {
    const llm = {
      generate: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield { type: 'text-delta' as const, text: 'partial' }
        throw new Error('brain broke')
      },
    }
    const proxy = await startProxy({ llm })
    const seen: string[] = []
    const reading = (async () => {
      for await (const part of await ollamaFor(proxy).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: true })) seen.push(part.message.content)
    })()
    await expect(reading).rejects.toThrow(/brain broke/)
    expect(seen).toEqual(['partial'])
  })
})

describe('bad input on the Ollama routes gets Ollama’s { error } shape', () => {
  const cases: [string, string, RequestInit, number, RegExp][] = [
    ['malformed JSON', '/api/chat', { method: 'POST', body: '{"model": ' }, 400, /not valid JSON/],
    ['a form body', '/api/chat', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'model=m' }, 400, /not valid JSON/],
    ['no model', '/api/chat', { method: 'POST', body: JSON.stringify({ messages: [] }) }, 400, /model is required/],
    ['messages not an array', '/api/chat', { method: 'POST', body: JSON.stringify({ model: 'm', messages: 'hi' }) }, 400, /messages must be an array/],
    ['an unknown role', '/api/chat', { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'bot', content: 'x' }] }) }, 400, /invalid role/],
    ['a non-boolean stream', '/api/chat', { method: 'POST', body: JSON.stringify({ model: 'm', messages: [], stream: 'yes' }) }, 400, /stream must be a boolean/],
    ['a bad format', '/api/chat', { method: 'POST', body: JSON.stringify({ model: 'm', messages: [], format: 42 }) }, 400, /format/],
    ['generate with a non-string prompt', '/api/generate', { method: 'POST', body: JSON.stringify({ model: 'm', prompt: 5 }) }, 400, /prompt must be a string/],
    ['embed without input', '/api/embed', { method: 'POST', body: JSON.stringify({ model: 'm' }) }, 400, /invalid input type/],
    ['embed with bad dimensions', '/api/embed', { method: 'POST', body: JSON.stringify({ model: 'm', input: 'x', dimensions: -1 }) }, 400, /dimensions/],
    ['POST on the model list', '/api/tags', { method: 'POST', body: '{}' }, 405, /not allowed/],
  ]
  test.each(cases)('%s', async (_name, path, init, status, message) => {
    const proxy = await startProxy()
    const answer = await raw(`${proxy.url}${path}`, { headers: { 'content-type': 'application/json' }, ...init })
    expect(answer.status).toBe(status)
    expect(answer.body).toEqual({ error: expect.stringMatching(message) })
    // A body that parsed but has a malformed field is recorded with its 400 (SPEC §24); one
    // that could not be read, or a wrong method, is not.
    expect(proxy.requests.map((request) => request.status)).toEqual(status === 400 && parses(init) ? [400] : [])
  })

  test('JSON sent with curl -d’s form content type is read, and without stream: false it is streamed, as Ollama does', async () => {
    const proxy = await startProxy()
    const answer = await raw(`${proxy.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(answer.headers.get('content-type')).toBe('application/x-ndjson')
    const lines = answer.text.trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.at(-1)).toMatchObject({ done: true })
    expect(lines.map((line) => line.message.content).join('')).toBe(CANNED_REPLY)
  })
})
