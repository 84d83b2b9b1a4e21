import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { fakeMcpServer, type FakeMcpServer, type FakeMcpServerOptions } from '../../src/index.js'

const open: { close(): Promise<void> }[] = []
// Clients first, then the servers they talk to.
afterEach(async () => {
  for (const item of open.splice(0)) await item.close()
})

async function connect(options: FakeMcpServerOptions): Promise<{ mcp: FakeMcpServer; client: Client }> {
  const mcp = await fakeMcpServer(options).start()
  const client = new Client({ name: 'test-client', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)))
  open.push(client, mcp)
  return { mcp, client }
}

const weather: FakeMcpServerOptions = {
  name: 'weather',
  version: '2.0.0',
  instructions: 'Ask for the weather by city.',
  tools: {
    get_weather: {
      description: 'Current weather',
      inputSchema: z.object({ city: z.string() }),
      responses: { Paris: 'sunny', '*': 'rain' },
    },
  },
}

describe('@modelcontextprotocol/sdk Client over Streamable HTTP', () => {
  test('initializes: server info, instructions, capabilities and a session id', async () => {
    const { mcp, client } = await connect(weather)
    expect(mcp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    expect(client.getServerVersion()).toEqual({ name: 'weather', version: '2.0.0' })
    expect(client.getInstructions()).toBe('Ask for the weather by city.')
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, resources: {}, prompts: {} })
    const transport = (client as unknown as { transport: StreamableHTTPClientTransport }).transport
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    expect(mcp.requests.map((message) => message.method)).toEqual(['initialize', 'notifications/initialized'])
  })

  test('lists tools with the JSON Schema of a zod input schema', async () => {
    const { client } = await connect(weather)
    const { tools } = await client.listTools()
    expect(tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ])
  })

  test('calls a tool: the map matches the JSON of the arguments; the call is recorded with its session', async () => {
    const { mcp, client } = await connect(weather)
    await expect(client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'sunny' }],
    })
    await expect(client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'rain' }],
    })
    const session = (client as unknown as { transport: StreamableHTTPClientTransport }).transport.sessionId
    expect(mcp.calls).toEqual([
      { tool: 'get_weather', args: { city: 'Paris' }, result: { content: [{ type: 'text', text: 'sunny' }] }, session },
      { tool: 'get_weather', args: { city: 'Oslo' }, result: { content: [{ type: 'text', text: 'rain' }] }, session },
    ])
  })

  test('arguments failing the schema get an isError result naming the field; responses are not consulted', async () => {
    const { mcp, client } = await connect({
      tools: { get_weather: { inputSchema: z.object({ city: z.string() }), responses: ['first', 'second'] } },
    })
    const result = await client.callTool({ name: 'get_weather', arguments: { town: 'Paris' } })
    expect(result.isError).toBe(true)
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringMatching(/^MCP error -32602: Input validation error: Invalid arguments for tool get_weather: city: /) },
    ])
    expect(mcp.calls[0].error?.message).toContain('city')
    // The list did not move: the next valid call gets its first item.
    await expect(client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })).resolves.toMatchObject({
      content: [{ text: 'first' }],
    })
  })

  test('a JSON Schema inputSchema is listed as given and checked with the SDK validator', async () => {
    const schema = { type: 'object' as const, properties: { n: { type: 'integer' } }, required: ['n'] }
    const { client } = await connect({ tools: { double: { inputSchema: schema, responses: (args: { n: number }) => args.n * 2 } } })
    expect((await client.listTools()).tools[0].inputSchema).toEqual(schema)
    await expect(client.callTool({ name: 'double', arguments: { n: 21 } })).resolves.toEqual({ content: [{ type: 'text', text: '42' }] })
    const bad = await client.callTool({ name: 'double', arguments: { n: 'x' } })
    expect(bad).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('must be integer') }] })
  })

  test('responses: a function gets the arguments and the call; a list answers in order; an Error is an isError result', async () => {
    const seen: unknown[] = []
    const { mcp, client } = await connect({
      tools: {
        echo: {
          responses: (args: unknown, call: unknown) => {
            seen.push(call)
            return { echoed: args }
          },
        },
        steps: { responses: ['one', new Error('step failed')] },
      },
    })
    const echoed = await client.callTool({ name: 'echo', arguments: { a: 1 } })
    expect(echoed).toEqual({ content: [{ type: 'text', text: '{"echoed":{"a":1}}' }], structuredContent: { echoed: { a: 1 } } })
    expect(seen).toEqual([{ tool: 'echo', session: expect.any(String) }])
    await expect(client.callTool({ name: 'steps', arguments: {} })).resolves.toEqual({ content: [{ type: 'text', text: 'one' }] })
    await expect(client.callTool({ name: 'steps', arguments: {} })).resolves.toEqual({
      content: [{ type: 'text', text: 'step failed' }],
      isError: true,
    })
    expect(mcp.calls[2].error).toEqual(new Error('step failed'))
  })

  test('a list that runs out, or a map with no match, is a JSON-RPC error naming the tool', async () => {
    const { mcp, client } = await connect({ tools: { once: { responses: ['only'] }, keyed: { responses: { Paris: 'sunny' } } } })
    await client.callTool({ name: 'once', arguments: {} })
    await expect(client.callTool({ name: 'once', arguments: {} })).rejects.toThrow(/FakeMcpServer tool "once": responses exhausted after 1 call/)
    await expect(client.callTool({ name: 'keyed', arguments: { city: 'Oslo' } })).rejects.toThrow(
      /arguments "\{\\"city\\":\\"Oslo\\"\}" matched no response key \(keys: "Paris"\)/,
    )
    expect(mcp.calls.map((call) => call.error?.message ?? 'ok')).toEqual(['ok', expect.stringContaining('exhausted'), expect.stringContaining('no response key')])
  })

  test('an unknown tool is the JSON-RPC error -32602', async () => {
    const { mcp, client } = await connect(weather)
    const error = await client.callTool({ name: 'nope', arguments: {} }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: nope') })
    expect(mcp.calls).toEqual([{ tool: 'nope', args: {}, error: expect.any(Error), session: expect.any(String) }])
  })

  test('tool() adds a tool and listChanged() tells the client, which lists again', async () => {
    const mcp = await fakeMcpServer(weather).start()
    // The client opens its event stream for notifications after initializing, without waiting:
    // its fetch tells the test when the stream is open.
    let streamOpen!: () => void
    const opened = new Promise<void>((resolve) => (streamOpen = resolve))
    const watchingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (init?.method === 'GET' && response.ok) streamOpen()
      return response
    }
    const client = new Client({ name: 'test-client', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { fetch: watchingFetch }))
    open.push(client, mcp)
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()))

    mcp.tool('get_time', { description: 'Time', responses: '12:00' })
    await opened
    await mcp.listChanged()
    await changed

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_weather', 'get_time'])
    await expect(client.callTool({ name: 'get_time', arguments: {} })).resolves.toMatchObject({ content: [{ text: '12:00' }] })
  })

  test('resources: listed and read; an unknown URI is -32002', async () => {
    const { client } = await connect({
      resources: {
        'file:///notes.md': 'remember the umbrella',
        'file:///logo.png': { blob: 'iVBORw0KGgo=', mimeType: 'image/png', description: 'The logo' },
      },
    })
    expect((await client.listResources()).resources).toEqual([
      { uri: 'file:///notes.md', name: 'notes.md', mimeType: 'text/plain' },
      { uri: 'file:///logo.png', name: 'logo.png', mimeType: 'image/png', description: 'The logo' },
    ])
    await expect(client.readResource({ uri: 'file:///notes.md' })).resolves.toEqual({
      contents: [{ uri: 'file:///notes.md', mimeType: 'text/plain', text: 'remember the umbrella' }],
    })
    await expect(client.readResource({ uri: 'file:///missing' })).rejects.toMatchObject({ code: -32002 })
  })

  test('prompts: listed and got with arguments; a missing required argument is -32602', async () => {
    const { client } = await connect({
      prompts: {
        brief: {
          description: 'A brief',
          arguments: [{ name: 'city', required: true }],
          messages: (args) => [{ role: 'user', content: `Brief me on ${args.city}` }],
        },
      },
    })
    expect((await client.listPrompts()).prompts).toEqual([{ name: 'brief', description: 'A brief', arguments: [{ name: 'city', required: true }] }])
    await expect(client.getPrompt({ name: 'brief', arguments: { city: 'Paris' } })).resolves.toEqual({
      description: 'A brief',
      messages: [{ role: 'user', content: { type: 'text', text: 'Brief me on Paris' } }],
    })
    await expect(client.getPrompt({ name: 'brief', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    await expect(client.getPrompt({ name: 'other' })).rejects.toMatchObject({ code: -32602 })
  })

  test('an unknown method is -32601 Method not found', async () => {
    const { client } = await connect(weather)
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: 'b' } })).rejects.toMatchObject({
      code: -32601,
    })
  })

  test('two clients get two sessions; both are recorded', async () => {
    const { mcp, client } = await connect(weather)
    const other = new Client({ name: 'other', version: '1.0.0' })
    await other.connect(new StreamableHTTPClientTransport(new URL(mcp.url)))
    open.unshift(other)
    await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })
    await other.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })
    const sessions = new Set(mcp.calls.map((call) => call.session))
    expect(sessions.size).toBe(2)
  })

  test('reset() clears records and faults, rewinds lists and restores the declared tools', async () => {
    const { mcp, client } = await connect({ tools: { steps: { responses: ['one', 'two'] } } })
    await client.callTool({ name: 'steps', arguments: {} })
    mcp.tool('extra', { responses: 'x' }).fail({ kind: 'error' })
    mcp.reset()
    expect(mcp.calls).toEqual([])
    expect(mcp.requests).toEqual([])
    await expect(client.callTool({ name: 'steps', arguments: {} })).resolves.toMatchObject({ content: [{ text: 'one' }] })
    await expect(client.callTool({ name: 'extra', arguments: {} })).rejects.toMatchObject({ code: -32602 })
  })
})
