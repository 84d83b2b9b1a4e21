/**
 * SPEC §24: `agent-doubles mcp` over stdio answers a line over its 10 MiB limit with a JSON-RPC
 * parse error on stderr and keeps running (it used to exit 0 with nothing said); its records
 * are readable and reset like the HTTP server's.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { expect, onTestFinished, test } from 'vitest'
import { serveMcpStdio } from '../../src/cli/mcp.js'
import { STDIO_LINE_LIMIT } from '../../src/mcp/stdio-lines.js'

const config = fileURLToPath(new URL('../mcp/fixtures/weather.mcp.json', import.meta.url))
const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })}\n`

test('a line over 10 MiB is a JSON-RPC parse error on stderr, and the next line is answered', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'mcp', '--config', config], { stdio: ['pipe', 'pipe', 'pipe'] })
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  child.stdin.write(`{"jsonrpc":"2.0","id":0,"method":"ping","params":{"x":"${'a'.repeat(STDIO_LINE_LIMIT + 1024)}"}}\n`)
  child.stdin.write(initialize)
  while (!stdout.includes('"id":1')) await once(child.stdout, 'data')
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'weather' } } })
  expect(JSON.parse(stderr.trim().split('\n')[0])).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('exceeds the 10485760-byte limit') } })
  expect(child.exitCode).toBeNull()
  child.stdin.end()
  const [code] = (await once(child, 'exit')) as [number | null]
  expect(code).toBe(0)
}, 60_000)

test('its records are readable and reset', async () => {
  const stdin = new PassThrough()
  const stdout = new PassThrough()
  const server = await serveMcpStdio(['mcp', '--config', config], stdin, stdout, new PassThrough())
  onTestFinished(() => server.close())
  stdin.write(initialize)
  await once(stdout, 'data')
  expect(server.requests.map((message) => message.method)).toEqual(['initialize'])
  server.reset()
  expect(server.requests).toEqual([])
})
