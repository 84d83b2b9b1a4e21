import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect, test } from 'vitest'
import { fakeMcpServer, resetAll } from '../../src/index.js'
import { beginTestScope, endTestScope, liveDoubles } from '../../src/registry.js'

test('close() with a client still connected (its event stream open) ends everything; the client’s next call fails', async () => {
  const mcp = await fakeMcpServer({ tools: { ping: { responses: 'pong' } } }).start()
  let streamOpen!: () => void
  const opened = new Promise<void>((resolve) => (streamOpen = resolve))
  const client = new Client({ name: 'c', version: '1' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcp.url), {
      fetch: async (input, init) => {
        const response = await fetch(input, init)
        if (init?.method === 'GET' && response.ok) streamOpen()
        return response
      },
      // No reconnection attempts after the server goes: the test ends with nothing pending.
      reconnectionOptions: { maxReconnectionDelay: 1, initialReconnectionDelay: 1, reconnectionDelayGrowFactor: 1, maxRetries: 0 },
    }),
  )
  try {
    await opened
    await mcp.close()
    await expect(client.callTool({ name: 'ping', arguments: {} })).rejects.toThrow()
  } finally {
    await client.close()
  }
})

test('started again after close() it takes a new port and keeps its records', async () => {
  const mcp = await fakeMcpServer({ tools: { ping: { responses: 'pong' } } }).start()
  const firstUrl = mcp.url
  const client = new Client({ name: 'c', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)))
  await client.callTool({ name: 'ping', arguments: {} })
  await client.close()
  await mcp.close()
  await mcp.start()
  try {
    expect(mcp.url).not.toBe(firstUrl)
    expect(mcp.calls).toHaveLength(1)
  } finally {
    await mcp.close()
  }
})

test('the registry resets it with the other doubles, and a test’s end closes one the test made', async () => {
  beginTestScope()
  const mcp = await fakeMcpServer({ tools: { steps: { responses: ['one', 'two'] } } }).start()
  const url = mcp.url
  const client = new Client({ name: 'c', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  await client.callTool({ name: 'steps', arguments: {} })
  resetAll()
  expect(mcp.calls).toEqual([])
  await expect(client.callTool({ name: 'steps', arguments: {} })).resolves.toMatchObject({ content: [{ text: 'one' }] })
  await client.close()
  await endTestScope()
  expect(liveDoubles()).not.toContain(mcp)
  await expect(fetch(url)).rejects.toThrow()
})
