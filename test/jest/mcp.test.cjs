// useFakeMcp with the real MCP SDK client, the stdio CLI from the build, and the lazy SDK load.
const { execFileSync } = require('node:child_process')
const path = require('node:path')
const { Client } = require('@modelcontextprotocol/sdk/client/index.js')
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js')
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js')
const { FakeMcpServer } = require('agent-doubles')
const { useFakeMcp } = require('agent-doubles/jest')

const root = path.join(__dirname, '..', '..')
const mcp = useFakeMcp({
  name: 'weather',
  tools: { get_weather: { inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, responses: ['sunny', 'rain'] } },
})
let firstUrl

async function withClient(run) {
  const client = new Client({ name: 'jest-client', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)))
  try {
    return await run(client)
  } finally {
    await client.close()
  }
}

test('useFakeMcp starts a FakeMcpServer before the tests; the SDK client calls its tools', async () => {
  expect(mcp).toBeInstanceOf(FakeMcpServer)
  firstUrl = mcp.url
  const result = await withClient((client) => client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } }))
  expect(result).toEqual({ content: [{ type: 'text', text: 'sunny' }] })
  expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
  expect(mcp).toHaveCalledMcpToolTimes('get_weather', 1)
})

test('it is reset after each test (records cleared, list rewound) and keeps its port', async () => {
  expect(mcp.url).toBe(firstUrl)
  expect(mcp.calls).toEqual([])
  expect(mcp).not.toHaveCalledMcpTool('get_weather')
  const result = await withClient((client) => client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } }))
  expect(result.content[0].text).toBe('sunny')
})

test('the built CLI serves a config over stdio to the client that spawns it', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(root, 'dist', 'cli.js'), 'mcp', '--config', path.join(root, 'test', 'mcp', 'fixtures', 'weather.mcp.json')],
  })
  const client = new Client({ name: 'spawner', version: '1.0.0' })
  await client.connect(transport)
  try {
    expect(client.getServerVersion()).toMatchObject({ name: 'weather' })
    await expect(client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'sunny' }],
    })
  } finally {
    await client.close()
  }
})

test('importing agent-doubles does not load @modelcontextprotocol/sdk (CJS and ESM)', () => {
  const cjs = execFileSync(process.execPath, [
    '-e',
    "require('./dist/index.cjs'); console.log(Object.keys(require.cache).filter((k) => k.includes('@modelcontextprotocol')).length)",
  ], { cwd: root }).toString().trim()
  expect(cjs).toBe('0')
  const hooks = 'export async function resolve(s, c, next) { if (s.startsWith("@modelcontextprotocol")) throw new Error("loaded " + s); return next(s, c) }'
  const esm = execFileSync(process.execPath, [
    '--input-type=module',
    '-e',
    `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)})); const m = await import('./dist/index.js'); console.log(typeof m.fakeMcpServer)`,
  ], { cwd: root }).toString().trim()
  expect(esm).toBe('function')
})
