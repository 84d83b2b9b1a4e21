/**
 * HTTP-level faults (SPEC §11): bytes Node's parser refuses get a JSON 400/431 written by the
 * server's `clientError` handler — in the shape of the route when the request line tells it —
 * and the proxy keeps serving.
 */
import { describe, expect, test } from 'vitest'
import { openaiFor, startProxy } from '../helpers.js'
import { sendRaw } from './raw-socket.js'

const openaiShape = { error: { message: expect.stringContaining('[agent-doubles]'), type: 'invalid_request_error', param: null, code: null } }
// Anthropic's error bodies carry a request id, the ones the server writes by itself too (SPEC §21).
const anthropicShape = { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('[agent-doubles]') }, request_id: expect.stringMatching(/^req_011C/) }

const manyHeaders = Array.from({ length: 20_000 }, (_, i) => `x-h${i}: ${i}\r\n`).join('')

const faults: [what: string, bytes: string, status: number, code: string][] = [
  ['a bad method token', 'GE(T /v1/chat/completions HTTP/1.1\r\nhost: x\r\n\r\n', 400, 'HPE_INVALID_METHOD'],
  ['20,000 headers', `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\n${manyHeaders}\r\n`, 431, 'HPE_HEADER_OVERFLOW'],
  ['one 20 KB header', `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'HPE_HEADER_OVERFLOW'],
  [
    'Content-Length with Transfer-Encoding',
    'POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
    'HPE_',
  ],
  ['two different Content-Lengths', 'POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\n{}', 400, 'HPE_'],
  ['a bad chunk size', 'POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n', 400, 'HPE_INVALID_CHUNK_SIZE'],
]

describe('HTTP-level faults get a JSON answer and the proxy keeps serving', () => {
  test.each(faults.map(([what, bytes, status, code]) => ({ what, bytes, status, code })))('$what → $status with a JSON body in the OpenAI shape', async ({ bytes, status, code }) => {
    const proxy = await startProxy()
    const answer = await sendRaw(proxy.url, bytes)
    expect(answer.status).toBe(status)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.headers['x-should-retry']).toBe('false')
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body))
    const body = JSON.parse(answer.body)
    expect(body).toEqual(openaiShape)
    expect(body.error.message).toContain(code)
    const completion = await openaiFor(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'still there?' }] })
    expect(completion.choices[0].message.content).toBeTruthy()
    expect(proxy.requests).toHaveLength(1)
  })

  test('on the Anthropic route the answer takes the Anthropic shape', async () => {
    const proxy = await startProxy()
    const answer = await sendRaw(proxy.url, 'POST /v1/messages HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n')
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toEqual(anthropicShape)
  })

  test('an Anthropic header on an unknown path picks the Anthropic shape too', async () => {
    const proxy = await startProxy()
    const answer = await sendRaw(proxy.url, `POST /v2/anything HTTP/1.1\r\nhost: x\r\nanthropic-version: 2023-06-01\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(answer.status).toBe(431)
    expect(JSON.parse(answer.body)).toEqual(anthropicShape)
  })
})
