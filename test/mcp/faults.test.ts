import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, test } from 'vitest'
import { fakeMcpServer, type FakeMcpServer } from '../../src/index.js'

const open: { close(): Promise<void> }[] = []
// Clients first, then the servers they talk to.
afterEach(async () => {
  for (const item of open.splice(0)) await item.close()
})

async function connect(): Promise<{ mcp: FakeMcpServer; client: Client }> {
  const mcp = await fakeMcpServer({ tools: { get_weather: { responses: 'sunny' }, get_time: { responses: '12:00' } } }).start()
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)))
  open.push(client, mcp)
  return { mcp, client }
}

const weather = { name: 'get_weather', arguments: { city: 'Paris' } }

describe('fail()', () => {
  test("kind 'error' answers the next call with a JSON-RPC internal error, then the tool works again", async () => {
    const { mcp, client } = await connect()
    mcp.fail({ kind: 'error' })
    await expect(client.callTool(weather)).rejects.toMatchObject({ code: -32603 })
    await expect(client.callTool(weather)).resolves.toMatchObject({ content: [{ text: 'sunny' }] })
    expect(mcp.calls.map((call) => call.error?.message)).toEqual([expect.stringContaining("fail({ kind: 'error' })"), undefined])
  })

  test("kind 'invalid' answers with something that is not a tool result: the client rejects it", async () => {
    const { mcp, client } = await connect()
    mcp.fail({ kind: 'invalid' })
    await expect(client.callTool(weather)).rejects.toThrow(/content/)
    await expect(client.callTool(weather)).resolves.toMatchObject({ content: [{ text: 'sunny' }] })
    expect(mcp.calls).toHaveLength(2)
  })

  test("kind 'disconnect' cuts the connection with no answer; the session still serves the next call", async () => {
    const { mcp, client } = await connect()
    mcp.fail({ kind: 'disconnect' })
    await expect(client.callTool(weather)).rejects.toThrow()
    await expect(client.callTool(weather)).resolves.toMatchObject({ content: [{ text: 'sunny' }] })
    expect(mcp.calls[0]).toMatchObject({ tool: 'get_weather', args: { city: 'Paris' }, error: expect.any(Error) })
    expect(mcp.calls[0].result).toBeUndefined()
  })

  test("kind 'timeout' never answers: the call hangs until the client gives up", async () => {
    const { mcp, client } = await connect()
    mcp.fail({ kind: 'timeout' })
    const giveUp = new AbortController()
    const call = client.callTool(weather, undefined, { signal: giveUp.signal })
    await expect.poll(() => mcp.calls.length).toBe(1)
    giveUp.abort(new Error('gave up waiting'))
    await expect(call).rejects.toThrow(/gave up waiting/)
    await expect(client.callTool(weather)).resolves.toMatchObject({ content: [{ text: 'sunny' }] })
  })

  test('close() ends a call left hanging by a timeout', async () => {
    const { mcp, client } = await connect()
    mcp.fail({ kind: 'timeout' })
    const call = client.callTool(weather).catch((error: unknown) => error)
    await expect.poll(() => mcp.calls.length).toBe(1)
    await mcp.close()
    // The server cut the socket the call waited on: the client's request fails at once.
    expect(await call).toBeInstanceOf(Error)
  })

  test('tool and times pick which calls break; other tools are untouched', async () => {
    const { mcp, client } = await connect()
    mcp.fail({ tool: 'get_weather', kind: 'error', times: 2 })
    await expect(client.callTool({ name: 'get_time', arguments: {} })).resolves.toMatchObject({ content: [{ text: '12:00' }] })
    await expect(client.callTool(weather)).rejects.toMatchObject({ code: -32603 })
    await expect(client.callTool(weather)).rejects.toMatchObject({ code: -32603 })
    await expect(client.callTool(weather)).resolves.toMatchObject({ content: [{ text: 'sunny' }] })
  })

  test('bad options are a TypeError naming the value', () => {
    const mcp = fakeMcpServer()
    expect(() => mcp.fail({ kind: 'explode' as never })).toThrow(/FakeMcpServer fail\(\): option kind must be "error" \| "disconnect" \| "timeout" \| "invalid", got "explode"/)
    expect(() => mcp.fail({ kind: 'error', times: 0 })).toThrow(/times must be a positive integer, got 0/)
    expect(() => mcp.fail({ kind: 'error', tool: 3 as never })).toThrow(/tool must be a tool name/)
    expect(() => mcp.fail(undefined as never)).toThrow(TypeError)
  })
})
