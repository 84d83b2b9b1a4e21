import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { describe, expect, test } from 'vitest'
import { serveMcpStdio } from '../../src/cli/mcp.js'

const config = fileURLToPath(new URL('../mcp/fixtures/weather.mcp.json', import.meta.url))
const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

test('agent-doubles mcp --config serves the config over stdio to the SDK client that spawns it', async () => {
  const stderr: string[] = []
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', cli, 'mcp', '--config', config],
    stderr: 'pipe',
  })
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()))
  const client = new Client({ name: 'spawner', version: '1.0.0' })
  await client.connect(transport)
  try {
    expect(client.getServerVersion()).toMatchObject({ name: 'weather' })
    expect((await client.listTools()).tools).toEqual([
      expect.objectContaining({ name: 'get_weather', inputSchema: expect.objectContaining({ required: ['city'] }) }),
    ])
    await expect(client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })).resolves.toEqual({
      content: [{ type: 'text', text: 'sunny' }],
    })
    await expect(client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } })).resolves.toMatchObject({ isError: true })
    await expect(client.callTool({ name: 'get_weather', arguments: {} })).resolves.toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("must have required property 'city'") }],
    })
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 })
    await expect(client.readResource({ uri: 'file:///notes.md' })).resolves.toMatchObject({ contents: [{ text: 'remember the umbrella' }] })
    await expect(client.getPrompt({ name: 'brief' })).resolves.toMatchObject({ messages: [{ role: 'user', content: { text: 'Brief me' } }] })
  } finally {
    await client.close()
  }
  expect(stderr.join('')).toBe('')
})

describe('serveMcpStdio()', () => {
  test('a malformed line does not stop the server: the next message is answered', async () => {
    const stdin = new PassThrough()
    const stdout = new PassThrough()
    const lines: unknown[] = []
    stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line))
    })
    const server = await serveMcpStdio(['mcp', '--config', config], stdin, stdout)
    try {
      stdin.write('{"jsonrpc": "2.0", "method"\n')
      stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) + '\n')
      await expect.poll(() => lines).toContainEqual({ jsonrpc: '2.0', id: 1, result: {} })
    } finally {
      await server.close()
    }
  })

  test('bad arguments and configs are errors that say what is wrong', async () => {
    await expect(serveMcpStdio(['mcp'])).rejects.toThrow('Usage: agent-doubles mcp --config file.json')
    await expect(serveMcpStdio(['mcp', '--config', '/nonexistent.json'])).rejects.toThrow(/cannot read --config \/nonexistent\.json/)
    const notJson = fileURLToPath(new URL('./mcp.test.ts', import.meta.url))
    await expect(serveMcpStdio(['mcp', '--config', notJson])).rejects.toThrow(/is not JSON/)
    await expect(serveMcpStdio(['mcp', '--port', '3'])).rejects.toThrow(/port/)
    const badTool = fileURLToPath(new URL('../mcp/fixtures/bad-tool.mcp.json', import.meta.url))
    await expect(serveMcpStdio(['mcp', '--config', badTool])).rejects.toThrow(
      /agent-doubles mcp tool "get_weather": a JSON Schema inputSchema must be an object schema/,
    )
  })

  test('the command prints a bad config to stderr and exits 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'] })
    const stderr: Buffer[] = []
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(2)
    expect(Buffer.concat(stderr).toString()).toContain('Usage: agent-doubles mcp --config file.json')
  })
})
