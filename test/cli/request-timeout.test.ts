/**
 * `agent-doubles serve --request-timeout ms` (SPEC §24: "configurable"), run as a user runs it —
 * a child process, from the sources: a request whose headers never finish is answered 408 once
 * the given time has passed; a value that is not a positive whole number of milliseconds is one
 * clear line, the usage, and exit 2.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { connect } from 'node:net'
import { createInterface } from 'node:readline'
import { afterEach, expect, test } from 'vitest'
import { cli, runCli } from './run-cli.js'

// Each run starts node and compiles the sources with tsx: seconds each on a loaded machine.
const slow = 90_000

const children = new Set<ChildProcess>()
afterEach(async () => {
  for (const child of children) {
    const exited = once(child, 'exit')
    child.kill('SIGINT')
    await exited
  }
  children.clear()
})

/** What a raw socket reads after sending `text` and waiting, until the server closes it. */
async function sendAndRead(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  let read = ''
  socket.on('data', (chunk: Buffer) => (read += chunk.toString('utf8')))
  socket.write(text)
  await once(socket, 'close')
  return read
}

test('serve --request-timeout 300: half a request’s headers get the 408 after 300 ms, and the proxy still serves', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--request-timeout', '300'], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  const [url] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string]
  const answer = await sendAndRead(url, 'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: app')
  expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  expect(answer).toContain('did not arrive within 300 ms (requestTimeoutMs)')
  const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })
  expect(res.status).toBe(200)
}, slow)

test('serve --request-timeout with 0, a fraction or nothing: one clear line, the usage, exit 2', async () => {
  const results = await Promise.all([['0'], ['1.5'], []].map((value) => runCli('serve', '--request-timeout', ...value)))
  for (const [i, value] of ['"0"', '"1.5"'].entries()) {
    expect(results[i]).toMatchObject({ code: 2, stdout: '' })
    expect(results[i].stderr).toMatch(new RegExp(`^\\[agent-doubles\\] serve: --request-timeout must be a positive whole number of milliseconds, got ${value.replace('.', '\\.')}\\n\\nUsage: agent-doubles serve .*\\[--request-timeout ms\\]`, 's'))
  }
  expect(results[2]).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^\[agent-doubles\] serve: --request-timeout needs a value\n\nUsage:/) })
}, slow)
