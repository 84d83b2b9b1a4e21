// node:http2 connect, as the AWS SDK's Bedrock client uses it: a refused origin gets a session
// that fails at once with the guard error (no socket opened); a routed one reaches the target,
// each stream under the route's path.
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime'
import http2, { connect as namedConnect } from 'node:http2'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { isProviderHost } from '../../src/guard/provider-hosts.js'
import { REAL_MODEL_CALL } from '../../src/guard/real-model-call.js'

// An h2c server standing in for the fake: it notes each stream's path and authority.
const received: string[] = []
const server = http2.createServer((req, res) => {
  received.push(`${req.method} ${req.url} ${req.headers[':authority'] ?? `host=${req.headers.host}`}`)
  res.setHeader('content-type', 'application/json')
  res.end('{"ok":true}')
})
let local = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  local = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

let uninstall: (() => void) | undefined
afterEach(() => {
  uninstall?.()
  uninstall = undefined
  received.length = 0
})

function get(session: http2.ClientHttp2Session, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, host: 'bedrock-runtime.us-east-1.amazonaws.com' })
    let body = ''
    stream.on('data', (chunk: Buffer) => (body += chunk.toString()))
    stream.on('end', () => resolve(body))
    stream.on('error', reject)
    stream.end('{}')
  })
}

test('a routed origin is connected to the target, each stream under the route\'s path', async () => {
  const seen: string[] = []
  uninstall = installNetworkGuard({
    route: (url) => {
      seen.push(url.href)
      return isProviderHost(url.hostname) ? `${local}/~lane-1${url.pathname}` : undefined
    },
  })
  const session = namedConnect('https://bedrock-runtime.us-east-1.amazonaws.com')
  try {
    expect(await get(session, '/model/anthropic.claude/converse')).toBe('{"ok":true}')
  } finally {
    session.close()
  }
  expect(seen).toEqual(['https://bedrock-runtime.us-east-1.amazonaws.com/'])
  expect(received).toEqual([`POST /~lane-1/model/anthropic.claude/converse ${local.slice(7)}`])
})

test('a refused origin fails the session and its streams with the guard error', async () => {
  uninstall = installNetworkGuard()
  const session = http2.connect('https://bedrock-runtime.us-east-1.amazonaws.com')
  const sessionError = new Promise((resolve) => session.once('error', resolve))
  const streamError = await get(session, '/model/x/converse').catch((e: unknown) => e)
  expect(await sessionError).toMatchObject({ code: REAL_MODEL_CALL, url: 'https://bedrock-runtime.us-east-1.amazonaws.com/' })
  expect(streamError).toBeInstanceOf(Error)
  expect(session.destroyed).toBe(true)
})

test('the default BedrockRuntimeClient is refused before anything is sent', async () => {
  uninstall = installNetworkGuard()
  const client = new BedrockRuntimeClient({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1 })
  try {
    const error = await client
      .send(new ConverseCommand({ modelId: 'anthropic.claude-3-haiku', messages: [{ role: 'user', content: [{ text: 'hi' }] }] }))
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ code: REAL_MODEL_CALL })
    expect((error as Error).message).toContain('A real model was called: CONNECT https://bedrock-runtime.us-east-1.amazonaws.com/')
  } finally {
    client.destroy()
  }
})

test('a local h2c origin passes untouched, and uninstall puts connect back', async () => {
  const original = http2.connect
  uninstall = installNetworkGuard()
  expect(http2.connect).not.toBe(original)
  const session = http2.connect(local)
  try {
    await get(session, '/direct')
  } finally {
    session.close()
  }
  // Passed as sent: the caller's own Host header stays.
  expect(received).toEqual(['POST /direct host=bedrock-runtime.us-east-1.amazonaws.com'])
  uninstall()
  uninstall = undefined
  expect(http2.connect).toBe(original)
  expect(namedConnect).toBe(original)
})
