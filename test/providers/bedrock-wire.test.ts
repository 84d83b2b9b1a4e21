/**
 * Bedrock on the raw wire: answers compared with real traffic recorded by the Vercel AI SDK
 * (test/recordings/bedrock/SOURCES.md), the event-stream framing decoded with the project's
 * codec, an exception message mid-stream, and bad input on every Bedrock route answered with
 * Bedrock's error type and `{ message }`.
 */
import { describe, expect, test } from 'vitest'
import { scriptedLLM, toolCall } from '../../src/index.js'
import { decodeMessages } from '../../src/wire/bedrock/eventstream.js'
import { postJson, raw, startProxy } from '../proxy/helpers.js'
import { jsonLines, keyPaths, keyPathsOfAll, recording, sorted } from './conformance.js'
import { parses } from './parses.js'

const converse = '/model/amazon.nova-lite-v1%3A0/converse'
const body = { messages: [{ role: 'user', content: [{ text: 'hi' }] }] }

/** The stream's events as `{ [eventType]: payload }`, the shape of the recordings. */
async function streamEvents(url: string, json: unknown): Promise<{ status: number; type: string | null; events: Record<string, unknown>[] }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) })
  const bytes = new Uint8Array(await response.arrayBuffer())
  const events = decodeMessages(bytes).map((message) => ({
    [String(message.headers[':event-type'] ?? message.headers[':exception-type'])]: JSON.parse(new TextDecoder().decode(message.payload)),
  }))
  return { status: response.status, type: response.headers.get('content-type'), events }
}

describe('Bedrock answers have the fields of recorded answers', () => {
  test('a Converse tool call', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('bash', { command: 'ls -l' })]) })
    const answer = await postJson(`${proxy.url}${converse}`, body)
    // `metrics` is in the API's answer shape; this recording leaves it out.
    expect(sorted(keyPaths(answer.body, ['metrics']))).toEqual(sorted(keyPaths(JSON.parse(recording('bedrock/bedrock-tool-call.1.json')))))
  })

  test('a ConverseStream text stream: the same events and fields, in the same order', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Let me count']) })
    const { status, type, events } = await streamEvents(`${proxy.url}/model/m/converse-stream`, body)
    const real = jsonLines(recording('bedrock/bedrock-text.chunks.txt')) as Record<string, unknown>[]
    expect(status).toBe(200)
    expect(type).toBe('application/vnd.amazon.eventstream')
    const names = (list: Record<string, unknown>[]) => [...new Set(list.map((event) => Object.keys(event)[0]))]
    expect(names(events)).toEqual(names(real))
    // The recording's extras: the model's own stop sequence and server-tool usage.
    expect(sorted(keyPathsOfAll(events))).toEqual(sorted(keyPathsOfAll(real, ['additionalModelResponseFields', 'serverToolUsage'])))
  })

  test('a ConverseStream tool call: start, input in pieces, stop', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('test-tool', { value: 'Sparkle Day' })]) })
    const { events } = await streamEvents(`${proxy.url}/model/m/converse-stream`, body)
    const real = jsonLines(recording('bedrock/bedrock-tool-call.1.chunks.txt')) as Record<string, unknown>[]
    expect(sorted(keyPathsOfAll(events.filter((event) => !('messageStart' in event))))).toEqual(sorted(keyPathsOfAll(real)))
    expect(events.filter((event) => 'contentBlockDelta' in event).length).toBeGreaterThan(1)
  })

  test('a validation error has the recorded body and the error type header', async () => {
    const proxy = await startProxy()
    const answer = await postJson(`${proxy.url}${converse}`, { messages: [{ role: 'system', content: [] }] })
    expect(answer.status).toBe(400)
    expect(sorted(keyPaths(answer.body))).toEqual(sorted(keyPaths(JSON.parse(recording('bedrock/amazon-bedrock-validation-error-no-type.json')))))
    expect(answer.headers.get('x-amzn-errortype')).toMatch(/^ValidationException:/)
  })
})

test('a brain failing mid-stream ends the stream with an exception message', async () => {
  const llm = {
    generate: () => Promise.reject(new Error('unused')),
    async *stream() {
      yield { type: 'text-delta' as const, text: 'partial' }
      throw new Error('brain broke')
    },
  }
  const proxy = await startProxy({ llm })
  const { events } = await streamEvents(`${proxy.url}/model/m/converse-stream`, body)
  expect(events.at(-1)).toEqual({ internalServerException: { message: expect.stringContaining('brain broke') } })
})

describe('bad input on the Bedrock routes gets Bedrock’s error type and { message }', () => {
  const cases: [string, string, RequestInit, number, string, RegExp][] = [
    ['malformed JSON', converse, { method: 'POST', body: '{"messages": [' }, 400, 'ValidationException', /not valid JSON/],
    ['a wrong content type', converse, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }, 415, 'ValidationException', /content-type/],
    ['no messages', converse, { method: 'POST', body: '{}' }, 400, 'ValidationException', /at 'messages' failed to satisfy constraint/],
    ['an unknown role', converse, { method: 'POST', body: JSON.stringify({ messages: [{ role: 'system', content: [] }] }) }, 400, 'ValidationException', /enum value set: \[user, assistant\]/],
    ['content not a list', converse, { method: 'POST', body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }) }, 400, 'ValidationException', /content' failed/],
    ['maxTokens of 0', converse, { method: 'POST', body: JSON.stringify({ ...body, inferenceConfig: { maxTokens: 0 } }) }, 400, 'ValidationException', /inferenceConfig.maxTokens/],
    ['invoke without anthropic_version', '/model/anthropic.claude-sonnet-4-6/invoke', { method: 'POST', body: JSON.stringify({ max_tokens: 5, messages: [] }) }, 400, 'ValidationException', /anthropic_version/],
    ['invoke on a model that is not Anthropic', '/model/amazon.titan-text/invoke', { method: 'POST', body: JSON.stringify({ inputText: 'x' }) }, 400, 'ValidationException', /Anthropic models only/],
    ['an embedding body without text', '/model/amazon.titan-embed-text-v2%3A0/invoke', { method: 'POST', body: JSON.stringify({ inputText: 5 }) }, 400, 'ValidationException', /expected inputText/],
    ['embedding dimensions of 0', '/model/amazon.titan-embed-text-v2%3A0/invoke', { method: 'POST', body: JSON.stringify({ inputText: 'x', dimensions: 0 }) }, 400, 'ValidationException', /dimensions/],
    ['GET on converse', converse, { method: 'GET' }, 405, 'ValidationException', /not allowed/],
  ]
  test.each(cases)('%s', async (_name, path, init, status, type, message) => {
    const proxy = await startProxy()
    const answer = await raw(`${proxy.url}${path}`, { headers: { 'content-type': 'application/json' }, ...init })
    expect(answer.status).toBe(status)
    expect(answer.headers.get('x-amzn-errortype')?.split(':')[0]).toBe(type)
    expect(answer.body).toEqual({ message: expect.stringMatching(message) })
    // A body that parsed but has a malformed field is recorded with its 400 (SPEC §24); one
    // that could not be read, or a wrong method, is not.
    expect(proxy.requests.map((request) => request.status)).toEqual(status === 400 && parses(init) ? [400] : [])
  })

  test('a refusal is Bedrock-shaped and keeps the proxy’s mark', async () => {
    const proxy = await startProxy()
    proxy.refuse('rate_limited', { message: 'slow down' })
    const answer = await postJson(`${proxy.url}${converse}`, body)
    expect(answer.status).toBe(429)
    expect(answer.body).toEqual({ message: 'slow down' })
    expect(answer.headers.get('x-amzn-errortype')).toMatch(/^ThrottlingException:/)
    expect(answer.headers.get('x-viper-error')).toBe('rate_limited')
  })
})
