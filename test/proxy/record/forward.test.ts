/**
 * forwardToUpstream: the caller's headers go up (minus what a proxy must drop), the answer
 * comes back unchanged and as it arrives, and the whole body is kept even when the caller left.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http'
import { describe, expect, test } from 'vitest'
import { UpstreamBrokeOff, UpstreamUnreachable, forwardToUpstream, upstreamUrl, type ForwardOptions, type ForwardResult } from '../../../src/upstream/forward.js'
import { deadOrigin, gate, readAll, serve } from './serve.js'

const text = (body: Uint8Array): string => Buffer.from(body).toString('utf8')

/** A front server that forwards every request to `origin`; its outcomes are collected in order. */
async function front(origin: string, headers: Record<string, string> = {}, options: ForwardOptions = {}) {
  const outcomes: Array<Promise<ForwardResult>> = []
  const responses: ServerResponse[] = []
  const wroteBeforeRejecting: boolean[] = []
  const server = await serve(async (req, res) => {
    const body = await readAll(req)
    responses.push(res)
    const forwarded = forwardToUpstream({ origin, method: req.method ?? 'GET', path: req.url ?? '/', headers: { ...plain(req.headers), ...headers }, body }, res, options)
    outcomes.push(forwarded)
    await forwarded.catch(() => {
      wroteBeforeRejecting.push(res.headersSent)
      if (!res.headersSent) res.writeHead(599).end()
    })
  })
  return { url: server.url, outcomes, responses, wroteBeforeRejecting }
}

function plain(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]))
}

describe('forwardToUpstream', () => {
  test('sends method, path with query, body and the caller’s auth headers; drops host, hop-by-hop and x-viper-*', async () => {
    let seen: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string } | undefined
    const upstream = await serve(async (req, res) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body: text(await readAll(req)) }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    const proxy = await front(upstream.url)
    const res = await fetch(`${proxy.url}/v1/chat/completions?api-version=2024-10-01`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer sk-caller',
        'x-api-key': 'sk-ant-caller',
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'structured-outputs-2025-11-13',
        'x-viper-agent': 'researcher',
        'x-viper-subagent': 'researcher/critic',
        'proxy-authorization': 'Basic secret',
      },
      body: '{"model":"m"}',
    })
    expect(res.status).toBe(200)
    expect(seen).toMatchObject({ method: 'POST', url: '/v1/chat/completions?api-version=2024-10-01', body: '{"model":"m"}' })
    expect(seen?.headers).toMatchObject({
      authorization: 'Bearer sk-caller',
      'x-api-key': 'sk-ant-caller',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'structured-outputs-2025-11-13',
      'content-type': 'application/json',
      host: new URL(upstream.url).host,
      'content-length': '13',
    })
    expect(Object.keys(seen?.headers ?? {}).filter((name) => name.startsWith('x-viper-') || name === 'proxy-authorization')).toEqual([])
  })

  test('a GET goes without a body, and an origin with a base path keeps it', async () => {
    let url: string | undefined
    const upstream = await serve((req, res) => {
      url = req.url
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}')
    })
    const proxy = await front(`${upstream.url}/base/`)
    const res = await fetch(`${proxy.url}/v1/models`)
    expect(await res.json()).toEqual({ data: [] })
    expect(url).toBe('/base/v1/models')
    expect(upstreamUrl('https://api.openai.com/', '/v1/x')).toBe('https://api.openai.com/v1/x')
  })

  test('an error status comes back unchanged: status, headers the SDKs read, and body bytes', async () => {
    const body = '{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit_exceeded"}}'
    const upstream = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after-ms': '1', 'x-request-id': 'req_up_1' }).end(body)
    })
    const proxy = await front(upstream.url)
    const res = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: '{}' })
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after-ms')).toBe('1')
    expect(res.headers.get('x-request-id')).toBe('req_up_1')
    expect(await res.text()).toBe(body)
    await expect(proxy.outcomes[0]).resolves.toMatchObject({ status: 429, contentType: 'application/json' })
  })

  test('streams each chunk to the caller as it arrives, and resolves with the whole body', async () => {
    const { upstream, second } = await twoEventUpstream()
    const proxy = await front(upstream.url)
    const res = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: '{}' })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = res.body!.getReader()
    // The upstream holds its second chunk until the first reached the caller: were it buffered, this would never resolve.
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: one\n\n')
    second.open()
    let rest = ''
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += new TextDecoder().decode(next.value)
    expect(rest).toBe('data: two\n\n')
    const result = await proxy.outcomes[0]
    expect(text(result.body)).toBe('data: one\n\ndata: two\n\n')
  })

  test('keeps reading the upstream to its end when the caller leaves early', async () => {
    const { upstream, second } = await twoEventUpstream()
    const proxy = await front(upstream.url)
    const abort = new AbortController()
    const res = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: '{}', signal: abort.signal })
    await res.body!.getReader().read()
    const gone = new Promise((resolve) => proxy.responses[0].once('close', resolve))
    abort.abort()
    await gone
    second.open()
    expect(text((await proxy.outcomes[0]).body)).toBe('data: one\n\ndata: two\n\n')
  })

  test('beforeEnd runs before the caller’s answer ends, and its failure is reported, not thrown', async () => {
    const steps: string[] = []
    const errors: unknown[] = []
    const upstream = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'))
    const proxy = await front(upstream.url, {}, {
      beforeEnd: (result) => {
        steps.push(`recorded ${text(result.body)}`)
        throw new Error('disk full')
      },
      onError: (error) => errors.push(error),
    })
    const res = await fetch(`${proxy.url}/v1/x`, { method: 'POST', body: '{}' })
    expect(await res.text()).toBe('{"ok":true}')
    expect(steps).toEqual(['recorded {"ok":true}'])
    expect(errors).toMatchObject([{ message: 'disk full' }])
  })

  test('an unreachable upstream rejects with UpstreamUnreachable before anything is written', async () => {
    const origin = await deadOrigin()
    const proxy = await front(origin)
    const res = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: '{}' })
    // The front server answers with its own 599 only because nothing was written yet.
    expect(res.status).toBe(599)
    const error = await proxy.outcomes[0].catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UpstreamUnreachable)
    expect((error as Error).message).toMatch(/\[agent-doubles\] FakeProxy: upstream http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions is unreachable/)
    expect(proxy.wroteBeforeRejecting).toEqual([false])
  })

  test('an upstream that breaks off mid-answer rejects with UpstreamBrokeOff and cuts the caller', async () => {
    const upstream = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: one\n\n', () => res.socket?.destroy())
    })
    const proxy = await front(upstream.url)
    const res = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: '{}' })
    await expect(res.text()).rejects.toThrow()
    await expect(proxy.outcomes[0]).rejects.toBeInstanceOf(UpstreamBrokeOff)
  })
})

/** An SSE upstream that sends `data: one`, then holds `data: two` until `second.open()`. */
async function twoEventUpstream() {
  const second = gate()
  const upstream = await serve(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    res.write('data: one\n\n')
    await second.promise
    res.end('data: two\n\n')
  })
  return { upstream, second }
}
