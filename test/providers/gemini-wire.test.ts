/**
 * Gemini on the raw wire: the JSON-array stream (no `alt=sse`), faults in it, and bad input on
 * every Gemini route answered with Gemini's own 400 shape.
 */
import { describe, expect, test } from 'vitest'
import { scriptedLLM, toolCall } from '../../src/index.js'
import { postJson, raw, startProxy } from '../proxy/helpers.js'
import { parses } from './parses.js'

const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }

describe('the Gemini JSON-array stream', () => {
  test('without alt=sse the stream is one JSON array written element by element', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three', toolCall('f', { a: 1 }, 'call_f')]) })
    const answer = await postJson(`${proxy.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, body)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
    expect(answer.text.startsWith('[{')).toBe(true)
    expect(answer.text).toContain('},\r\n{')
    const chunks = answer.body as { candidates: { content: { parts: { text?: string }[] }; finishReason?: string }[] }[]
    expect(chunks.length).toBe(4)
    expect(chunks.map((chunk) => chunk.candidates[0].content.parts[0].text).join('')).toBe('one two three')
    // As recorded traffic does, a last chunk of empty text carries the finish reason.
    expect(chunks.map((chunk) => chunk.candidates[0].finishReason)).toEqual([undefined, undefined, undefined, 'STOP'])
    expect(chunks[3].candidates[0].content.parts).toEqual([{ text: '' }])

    const second = await postJson(`${proxy.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent`, body)
    expect(second.body).toEqual([
      expect.objectContaining({ candidates: [{ index: 0, content: { role: 'model', parts: [{ functionCall: { id: 'call_f', name: 'f', args: { a: 1 } }, thoughtSignature: expect.any(String) }] } }] }),
      expect.objectContaining({ candidates: [{ index: 0, finishReason: 'STOP', content: { role: 'model', parts: [{ text: '' }] } }] }),
    ])
  })

  test('with alt=sse each chunk is one data: event', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['a b']) })
    const answer = await postJson(`${proxy.url}/v1beta/models/m:streamGenerateContent?alt=sse`, body)
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = answer.text.split('\n\n').filter(Boolean)
    expect(events).toHaveLength(3)
    expect(events.every((event) => event.startsWith('data: {"candidates"'))).toBe(true)
  })

  test('a planned disconnect cuts the array after the chunks it allows', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three']) })
    proxy.fail({ kind: 'disconnect', afterChunks: 1 })
    const response = await fetch(`${proxy.url}/v1beta/models/m:streamGenerateContent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow()
  })

  test('a brain that fails mid-stream ends the array with a Gemini error element', async () => {
    const llm = {
      generate: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield { type: 'text-delta' as const, text: 'partial' }
        throw new Error('brain broke')
      },
    }
    const proxy = await startProxy({ llm })
    const answer = await postJson(`${proxy.url}/v1beta/models/m:streamGenerateContent`, body)
    const elements = answer.body as unknown[]
    expect(elements).toHaveLength(2)
    expect(elements[0]).toMatchObject({ candidates: [{ content: { parts: [{ text: 'partial' }] } }] })
    expect(elements.at(-1)).toEqual({ error: { code: 500, status: 'INTERNAL', message: expect.stringContaining('brain broke') } })
  })
})

describe('bad input on the Gemini routes gets Gemini’s 400 shape', () => {
  const generate = '/v1beta/models/gemini-2.5-flash:generateContent'
  const cases: [string, string, RequestInit, number, RegExp][] = [
    ['malformed JSON', generate, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"contents": [' }, 400, /not valid JSON/],
    ['a wrong content type', generate, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) }, 415, /content-type/],
    ['no contents', generate, { method: 'POST', body: '{}' }, 400, /contents is not specified/],
    ['an unknown role', generate, { method: 'POST', body: JSON.stringify({ contents: [{ role: 'system', parts: [{ text: 'x' }] }] }) }, 400, /valid role/],
    ['empty parts', generate, { method: 'POST', body: JSON.stringify({ contents: [{ role: 'user', parts: [] }] }) }, 400, /parts must not be empty/],
    ['an empty part', generate, { method: 'POST', body: JSON.stringify({ contents: [{ role: 'user', parts: [{}] }] }) }, 400, /oneof field 'data'/],
    ['a bad tool name', generate, { method: 'POST', body: JSON.stringify({ ...body, tools: [{ functionDeclarations: [{ name: 'bad name!' }] }] }) }, 400, /Invalid function name/],
    ['a temperature out of range', generate, { method: 'POST', body: JSON.stringify({ ...body, generationConfig: { temperature: 3 } }) }, 400, /temperature/],
    ['a non-integer token limit', generate, { method: 'POST', body: JSON.stringify({ ...body, generationConfig: { maxOutputTokens: 1.5 } }) }, 400, /max_output_tokens/],
    ['GET on a POST method', generate, { method: 'GET' }, 405, /not allowed/],
    ['countTokens without contents', '/v1beta/models/m:countTokens', { method: 'POST', body: '{}' }, 400, /contents is not specified/],
    ['embedContent without content', '/v1beta/models/e:embedContent', { method: 'POST', body: '{}' }, 400, /content is not specified/],
    ['a bad outputDimensionality', '/v1beta/models/e:embedContent', { method: 'POST', body: JSON.stringify({ content: { parts: [{ text: 'x' }] }, outputDimensionality: 0 }) }, 400, /output_dimensionality/],
    ['an empty batch', '/v1beta/models/e:batchEmbedContents', { method: 'POST', body: JSON.stringify({ requests: [] }) }, 400, /requests is not specified/],
    ['a batch of 101', '/v1beta/models/e:batchEmbedContents', { method: 'POST', body: JSON.stringify({ requests: Array.from({ length: 101 }, () => ({ content: { parts: [{ text: 'x' }] } })) }) }, 400, /at most 100/],
  ]
  test.each(cases)('%s', async (_name, path, init, status, message) => {
    const proxy = await startProxy()
    const answer = await raw(`${proxy.url}${path}`, { headers: { 'content-type': 'application/json' }, ...init })
    expect(answer.status).toBe(status)
    const error = (answer.body as { error: { code: number; message: string; status: string } }).error
    expect(error).toEqual({ code: status, message: expect.stringMatching(message), status: status === 405 ? 'FAILED_PRECONDITION' : 'INVALID_ARGUMENT' })
    // A body that parsed but has a malformed field is recorded with its 400 (SPEC §24); one
    // that could not be read, or a wrong method, is not.
    expect(proxy.requests.map((request) => request.status)).toEqual(status === 400 && parses(init) ? [400] : [])
  })
})
