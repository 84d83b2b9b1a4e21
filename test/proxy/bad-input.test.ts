import { connect } from 'node:net'
import { describe, expect, test } from 'vitest'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { MAX_BODY_BYTES } from '../../src/server/server.js'
import { openaiFor, postJson, raw, startProxy } from './helpers.js'

/** After bad input the proxy must still answer a good request. */
async function stillServes(proxy: FakeProxy): Promise<void> {
  const completion = await openaiFor(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'ok?' }] })
  expect(completion.choices[0].message.content).toBeTruthy()
}

function expectStandardHeaders(headers: Headers): void {
  expect(headers.get('content-type')).toMatch(/^application\/json/)
  expect(headers.get('x-request-id')).toMatch(/^req_/)
  expect(headers.get('request-id')).toBe(headers.get('x-request-id'))
}

const openaiShape = { error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: null } }
// Anthropic's error bodies carry the request id, the fake's own ones too (SPEC §21).
const anthropicShape = { type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) }, request_id: expect.stringMatching(/^req_/) }

describe('bad HTTP input gets the dialect error shape and the proxy keeps serving', () => {
  test.each([
    ['/v1/chat/completions', openaiShape],
    ['/v1/responses', openaiShape],
    ['/v1/messages', anthropicShape],
  ])('malformed JSON on %s → 400', async (path, shape) => {
    const proxy = await startProxy()
    const answer = await raw(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": "m", ' })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(shape)
    expectStandardHeaders(answer.headers)
    expect(proxy.requests).toHaveLength(0)
    await stillServes(proxy)
  })

  test('a JSON body that is not an object, or misses required fields → 400 naming the field', async () => {
    const proxy = await startProxy()
    const array = await postJson(`${proxy.url}/v1/chat/completions`, [1, 2])
    expect(array.status).toBe(400)
    const missing = await postJson(`${proxy.url}/v1/chat/completions`, { model: 'm' })
    expect(missing.status).toBe(400)
    expect(missing.body).toMatchObject({ error: { param: 'messages', message: "Missing required parameter: 'messages'.", code: 'missing_required_parameter' } })
    const anthropic = await postJson(`${proxy.url}/v1/messages`, { messages: [] })
    expect(anthropic.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('model') } })
    await stillServes(proxy)
  })

  test('a wrong content type → 415', async () => {
    const proxy = await startProxy()
    const body = JSON.stringify({ model: 'm', messages: [] })
    const openai = await raw(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })
    expect(openai.status).toBe(415)
    expect(openai.body).toEqual(openaiShape)
    const anthropic = await raw(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
    expect(anthropic.status).toBe(415)
    expect(anthropic.body).toEqual(anthropicShape)
    expectStandardHeaders(anthropic.headers)
    await stillServes(proxy)
  })

  test('a body over 32 MiB with a content-length → 413, then a good request succeeds', async () => {
    const proxy = await startProxy()
    const big = new Uint8Array(MAX_BODY_BYTES + 1024).fill(0x20)
    const answer = await raw(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big })
    expect(answer.status).toBe(413)
    expect(answer.body).toMatchObject({ type: 'error', error: { type: 'request_too_large' } })
    await stillServes(proxy)
  })

  test('a chunked body that grows over 32 MiB → 413 without buffering it all', async () => {
    const proxy = await startProxy()
    const chunk = new Uint8Array(1024 * 1024).fill(0x20)
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 40) controller.close()
        else controller.enqueue(chunk)
      },
    })
    const answer = await raw(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(answer.status).toBe(413)
    expect(answer.body).toMatchObject({ error: { type: 'invalid_request_error' } })
    await stillServes(proxy)
  })

  test('an unknown route → 404 in the shape its path suggests; a wrong method → 405', async () => {
    const proxy = await startProxy()
    const openai = await postJson(`${proxy.url}/v1/completions-nope`, {})
    expect(openai.status).toBe(404)
    expect(openai.body).toMatchObject({ error: { type: 'not_found_error', message: expect.stringContaining('/v1/completions-nope') } })
    expectStandardHeaders(openai.headers)
    const anthropic = await postJson(`${proxy.url}/v1/messages/count_tokens`, {})
    expect(anthropic.status).toBe(404)
    expect(anthropic.body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
    const wrongMethod = await raw(`${proxy.url}/v1/chat/completions`)
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('POST')
    await stillServes(proxy)
  })

  test('a client that disconnects mid-request is dropped quietly; nothing is recorded', async () => {
    const proxy = await startProxy()
    const { port } = new URL(proxy.url)
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"model":')
        setTimeout(() => {
          socket.destroy()
          resolve()
        }, 20)
      })
      socket.on('error', reject)
    })
    await stillServes(proxy)
    expect(proxy.requests).toHaveLength(1)
    expect(proxy.refusals).toHaveLength(0)
  })

  test('garbage that is not HTTP gets a 400 and the proxy keeps serving', async () => {
    const proxy = await startProxy()
    const { port } = new URL(proxy.url)
    const reply = await new Promise<string>((resolve, reject) => {
      let data = ''
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'))
      socket.on('data', (chunk) => (data += chunk))
      socket.on('close', () => resolve(data))
      socket.on('error', reject)
    })
    expect(reply).toMatch(/^HTTP\/1\.1 400/)
    await stillServes(proxy)
  })
})

describe('framing', () => {
  test('every SSE event ends with a blank line, the last included, on every streaming dialect', async () => {
    const proxy = await startProxy()
    const bodies = [
      ['/v1/chat/completions', { model: 'm', stream: true, messages: [{ role: 'user', content: 'x' }] }],
      ['/v1/responses', { model: 'm', stream: true, input: 'x' }],
      ['/v1/messages', { model: 'm', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'x' }] }],
    ] as const
    for (const [path, body] of bodies) {
      const answer = await postJson(`${proxy.url}${path}`, body)
      expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/)
      expect(answer.headers.get('x-request-id')).toMatch(/^req_/)
      expect(answer.headers.get('request-id')).toMatch(/^req_/)
      expect(answer.text.endsWith('\n\n')).toBe(true)
      const events = answer.text.slice(0, -2).split('\n\n')
      for (const event of events) expect(event).toMatch(/^(event: [\w.]+\n)?data: .+$/)
      if (path === '/v1/messages') for (const event of events) expect(event).toMatch(/^event: /)
      if (path === '/v1/chat/completions') expect(events.at(-1)).toBe('data: [DONE]')
    }
  })
})
