/**
 * SPEC §24, the local attacker: a web page in the developer's browser can reach 127.0.0.1, by
 * DNS rebinding (its own name, resolving to 127.0.0.1: a foreign `Host`) or by a cross-site
 * request (a foreign `Origin`, a `text/plain` body that needs no preflight). The control API and
 * FakeMcpServer refuse all three; the model routes still take any `Host` (SDKs routed by host
 * send the provider's). The control API's records mask the credentials a client sent.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { request } from 'node:http'
import { afterEach, describe, expect, test } from 'vitest'
import { FakeMcpServer } from '../../src/mcp/fake-mcp-server.js'
import { FakeProxy } from '../../src/server/fake-proxy.js'

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const item of open.splice(0)) await item.close()
})

/** One request with exactly these headers (fetch would not send a `Host` of our choosing). */
function send(url: string, method: string, headers: Record<string, string>, body = ''): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = ''
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function proxy(): Promise<FakeProxy> {
  const started = await new FakeProxy({ controlApi: true }).start()
  open.push(started)
  return started
}

describe('the control API', () => {
  test('refuses a foreign Host (DNS rebinding) with a 403 in JSON, and the reset does not happen', async () => {
    const fake = await proxy()
    await fetch(`${fake.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })
    const port = new URL(fake.url).port
    const answer = await send(`${fake.url}/_agent-doubles/reset`, 'POST', { host: `attacker.example:${port}`, 'content-type': 'application/json' }, '{}')
    expect(answer).toEqual({ status: 403, json: { error: { code: 'forbidden', message: expect.stringContaining('Host "attacker.example:') } } })
    expect(fake.requests).toHaveLength(1)
    const read = await send(`${fake.url}/_agent-doubles/requests`, 'GET', { host: 'attacker.example' })
    expect(read.status).toBe(403)
  })

  test('refuses a foreign Origin (a cross-site page) with a 403 in JSON', async () => {
    const fake = await proxy()
    const answer = await send(`${fake.url}/_agent-doubles/reset`, 'POST', { origin: 'https://attacker.example', 'content-type': 'application/json' }, '{}')
    expect(answer).toEqual({ status: 403, json: { error: { code: 'forbidden', message: expect.stringContaining('Origin "https://attacker.example"') } } })
    const sameSite = await send(`${fake.url}/_agent-doubles/reset`, 'POST', { origin: fake.url.replace('127.0.0.1', 'localhost'), 'content-type': 'application/json' }, '{}')
    expect(sameSite.status).toBe(200)
  })

  test('takes mutations only as JSON: a text/plain POST (no preflight needed) is a 415', async () => {
    const fake = await proxy()
    const plain = await send(`${fake.url}/_agent-doubles/reset`, 'POST', { 'content-type': 'text/plain' }, '{}')
    expect(plain).toEqual({ status: 415, json: { error: { code: 'invalid_request', message: expect.stringContaining('got "text/plain"') } } })
    const form = await send(`${fake.url}/_agent-doubles/refuse`, 'POST', { 'content-type': 'application/x-www-form-urlencoded' }, 'code=rate_limited')
    expect(form.status).toBe(415)
    // `curl -X POST` (no body, no type) still resets: a page cannot send that cross-site without its Origin.
    expect((await send(`${fake.url}/_agent-doubles/reset`, 'POST', {})).status).toBe(200)
    for (const host of ['localhost', '127.0.0.1', `localhost:${new URL(fake.url).port}`]) {
      expect((await send(`${fake.url}/_agent-doubles/health`, 'GET', { host })).status).toBe(200)
    }
  })

  test('the model routes still take any Host: SDKs routed by host send the provider’s', async () => {
    const fake = await proxy()
    const answer = await send(`${fake.url}/v1/chat/completions`, 'POST', { host: 'api.openai.com', origin: 'https://attacker.example', 'content-type': 'application/json' }, JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }))
    expect(answer.status).toBe(200)
  })

  test('GET requests and refusals mask every credential a client sent, as transcripts never hold them', async () => {
    const fake = await proxy()
    const secrets = {
      authorization: 'Bearer sk-live-1',
      'api-key': 'azure-key-2',
      'x-api-key': 'sk-ant-3',
      'x-goog-api-key': 'AIza-4',
      cookie: 'session=5',
      'proxy-authorization': 'Basic 6',
      'x-amz-security-token': 'token-7',
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
      'x-custom-auth': 'AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE8/20260101/us-east-1/bedrock/aws4_request, Signature=9abc',
    }
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    await send(`${fake.url}/v1/chat/completions`, 'POST', { ...secrets, 'content-type': 'application/json' }, body)
    fake.refuse('rate_limited')
    await send(`${fake.url}/v1/chat/completions`, 'POST', { ...secrets, 'content-type': 'application/json' }, body)
    const listed = JSON.stringify([(await send(`${fake.url}/_agent-doubles/requests`, 'GET', {})).json, (await send(`${fake.url}/_agent-doubles/refusals`, 'GET', {})).json])
    for (const secret of ['sk-live-1', 'azure-key-2', 'sk-ant-3', 'AIza-4', 'session=5', 'Basic 6', 'token-7', 'AKIAEXAMPLE8', '9abc']) expect(listed).not.toContain(secret)
    expect(listed).toContain('[redacted]')
    expect(listed).toContain('UNSIGNED-PAYLOAD')
    // The records a test reads in process keep what it sent.
    expect(fake.requests[0].headers['x-api-key']).toBe('sk-ant-3')
  })
})

describe('FakeMcpServer', () => {
  async function mcp(options: ConstructorParameters<typeof FakeMcpServer>[0] = {}): Promise<FakeMcpServer> {
    const server = await new FakeMcpServer({ tools: { ping: { responses: 'pong' } }, ...options }).start()
    open.push(server)
    return server
  }
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })
  const accept = { accept: 'application/json, text/event-stream' }

  test('refuses a foreign Host, a foreign Origin and a text/plain POST, in JSON-RPC’s error shape', async () => {
    const server = await mcp()
    const port = new URL(server.url).port
    const rebound = await send(server.url, 'POST', { ...accept, host: `attacker.example:${port}`, 'content-type': 'application/json' }, initialize)
    expect(rebound).toEqual({ status: 403, json: { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Host "attacker.example:') } } })
    const crossSite = await send(server.url, 'POST', { ...accept, origin: 'https://attacker.example', 'content-type': 'application/json' }, initialize)
    expect(crossSite.status).toBe(403)
    const plain = await send(server.url, 'POST', { ...accept, 'content-type': 'text/plain' }, initialize)
    expect(plain.status).toBe(415)
    expect(server.requests).toEqual([])
  })

  test('sessions are capped: the least recently used ends, and its client gets the SDK’s 404 Session not found', async () => {
    const server = await mcp({ maxSessions: 2 })
    const clients: Client[] = []
    for (let i = 0; i < 3; i++) {
      const client = new Client({ name: `c${i}`, version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
      clients.push(client)
      open.push(client)
    }
    await expect(clients[0].listTools()).rejects.toThrow(/Session not found/)
    expect((await clients[2].listTools()).tools.map((tool) => tool.name)).toEqual(['ping'])
  })

  test('an idle session expires, checked as the next request arrives (no timer is left)', async () => {
    const server = await mcp({ sessionIdleMs: 50 })
    const client = new Client({ name: 'c', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
    open.push(client)
    await new Promise((resolve) => setTimeout(resolve, 120))
    await expect(client.listTools()).rejects.toThrow(/Session not found/)
  })
})
