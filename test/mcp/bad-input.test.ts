// Raw HTTP on purpose: these requests are what no real client sends.
import { connect as connectSocket } from 'node:net'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fakeMcpServer, type FakeMcpServer } from '../../src/index.js'

let mcp: FakeMcpServer
beforeAll(async () => {
  mcp = await fakeMcpServer({ tools: { ping: { responses: 'pong' } } }).start()
})
afterAll(() => mcp.close())

const accept = 'application/json, text/event-stream'

function post(body: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcp.url, { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body })
}

async function initialize(): Promise<string> {
  const response = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  )
  expect(response.status).toBe(200)
  await response.text()
  return response.headers.get('mcp-session-id')!
}

/** The JSON-RPC message of a response, JSON or a one-event SSE stream. */
async function messageOf(response: Response): Promise<any> {
  const text = await response.text()
  if (response.headers.get('content-type')?.includes('text/event-stream')) {
    const data = text.split('\n').find((line) => line.startsWith('data: '))
    return JSON.parse(data!.slice(6))
  }
  return JSON.parse(text)
}

describe('bad input gets the JSON-RPC errors the SDK servers send, never a crash', () => {
  test('a body that is not JSON is a 400 parse error (-32700)', async () => {
    const response = await post('{"jsonrpc": "2.0", "method": ')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null })
  })

  test('JSON that is not JSON-RPC, in a session, is a 400 parse error from the transport', async () => {
    const session = await initialize()
    const response = await post(JSON.stringify({ hello: 'world' }), { 'mcp-session-id': session })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null })
    expect(mcp.requests).toContainEqual({ hello: 'world' })
  })

  test('a request without a session that is not initialize is a 400', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining('No valid session ID') } })
  })

  test('an unknown session is a 404 (-32001), as the spec tells clients to start over', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { 'mcp-session-id': 'nope' })
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } })
  })

  test('an unknown method is -32601 and an unknown tool -32602, in the session', async () => {
    const session = await initialize()
    const unknownMethod = await post(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/explode' }), { 'mcp-session-id': session })
    expect(await messageOf(unknownMethod)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Method not found' } })
    const unknownTool = await post(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'nope' } }), {
      'mcp-session-id': session,
    })
    expect(await messageOf(unknownTool)).toEqual({ jsonrpc: '2.0', id: 8, error: { code: -32602, message: 'Unknown tool: nope' } })
    const noName = await post(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { arguments: {} } }), {
      'mcp-session-id': session,
    })
    // The SDK's protocol layer answers params that fail its request schema with -32603, naming the field.
    expect(await messageOf(noName)).toMatchObject({ id: 9, error: { code: -32603, message: expect.stringContaining('name') } })
  })

  test('a client that does not accept event streams is a 406', async () => {
    const response = await post(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }), { accept: 'application/json' })
    expect(response.status).toBe(406)
    expect(await response.json()).toMatchObject({ error: { code: -32000 } })
  })

  test('other paths are 404, other methods 405, a GET without a session 400', async () => {
    const other = await fetch(mcp.url.replace('/mcp', '/sse'))
    expect(other.status).toBe(404)
    expect(await other.json()).toMatchObject({ error: { message: expect.stringContaining('/mcp') } })
    const put = await fetch(mcp.url, { method: 'PUT' })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, POST, DELETE')
    await put.text()
    const get = await fetch(mcp.url, { headers: { accept: 'text/event-stream' } })
    expect(get.status).toBe(400)
    await get.text()
  })

  test('DELETE ends a session: later requests on it are 404', async () => {
    const session = await initialize()
    const deleted = await fetch(mcp.url, { method: 'DELETE', headers: { 'mcp-session-id': session } })
    expect(deleted.status).toBe(200)
    await deleted.text()
    const after = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { 'mcp-session-id': session })
    expect(after.status).toBe(404)
    await after.text()
  })

  test('garbage on the socket is a 400 and the server keeps serving', async () => {
    const { port } = new URL(mcp.url)
    const socket = connectSocket(Number(port), '127.0.0.1')
    await once(socket, 'connect')
    socket.write('NOT HTTP AT ALL\r\n\r\n')
    const [chunk] = (await once(socket, 'data')) as [Buffer]
    socket.destroy()
    expect(chunk.toString()).toMatch(/^HTTP\/1\.1 400/)
    expect(await initialize()).toMatch(/^[0-9a-f-]{36}$/)
  })
})
