/**
 * SPEC §24 on HTTP/2 (the AWS SDK's Bedrock client speaks it to an `http://` endpoint): a stream
 * whose body never finishes, and a session that opens and then sends nothing, had no deadline and
 * held their memory until the proxy closed. Now `requestTimeoutMs` holds for them as for HTTP/1.1:
 * the stalled stream gets the 408 in Bedrock's own shape and is closed; the idle session is closed
 * with GOAWAY; a well-behaved client on the same proxy is served throughout.
 */
import { connect, type ClientHttp2Session } from 'node:http2'
import { once } from 'node:events'
import { afterEach, expect, test } from 'vitest'
import { FakeProxy } from '../../src/server/fake-proxy.js'

const open: { close(): Promise<void> | void }[] = []
afterEach(async () => {
  for (const item of open.splice(0)) await item.close()
})

async function start(): Promise<FakeProxy> {
  const proxy = await new FakeProxy({ requestTimeoutMs: 300 }).start()
  open.push(proxy)
  return proxy
}

function session(url: string): ClientHttp2Session {
  const client = connect(url)
  client.on('error', () => {})
  open.push({ close: () => void client.destroy() })
  return client
}

const converse = '/model/anthropic.claude-3-haiku/converse'
const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] })

/** Sends a request on `client`; `whole: false` sends half the body and never ends the stream. */
async function send(client: ClientHttp2Session, whole: boolean): Promise<{ status: number; text: string }> {
  const stream = client.request({ ':method': 'POST', ':path': converse, 'content-type': 'application/json' }, { endStream: false })
  stream.on('error', () => {})
  if (whole) stream.end(body)
  else stream.write(body.slice(0, 10))
  const [headers] = (await once(stream, 'response')) as [Record<string, string | number>]
  let text = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => (text += chunk))
  await once(stream, 'close')
  return { status: Number(headers[':status']), text }
}

test('a stream whose body never finishes gets the 408 in Bedrock’s shape and is closed; the same session then serves a whole request', async () => {
  const proxy = await start()
  const client = session(proxy.url)
  const stalled = await send(client, false)
  expect(stalled.status).toBe(408)
  expect(JSON.parse(stalled.text)).toEqual({ message: expect.stringContaining('did not arrive within 300 ms (requestTimeoutMs)') })
  const whole = await send(client, true)
  expect(whole.status).toBe(200)
  // The stalled one never arrived: only the whole one is a request.
  expect(proxy.requests).toHaveLength(1)
})

test('a session that opens and sends no request is closed with GOAWAY after the deadline', async () => {
  const proxy = await start()
  const client = session(proxy.url)
  await once(client, 'connect')
  const [code] = (await once(client, 'goaway')) as [number]
  expect(code).toBe(0)
  await once(client, 'close')
})
