/**
 * In a fresh process: whether `start()` and HTTP traffic load the WebSocket side (`ws`), whether
 * the first upgrade does, and what a server closed while an upgrade waits for that load does with
 * the upgrade. Prints one JSON line.
 */
import { createRequire } from 'node:module'
import { connect } from 'node:net'
import { WebSocket } from 'undici'
import { FakeProxy, scriptedLLM } from '../../../src/index.js'

// The client is undici's, so `ws` is in the module cache only if the server's WebSocket side loaded it.
const serverLoaded = (): boolean => Object.keys(createRequire(import.meta.url).cache).some((path) => path.endsWith('/ws/lib/websocket-server.js'))

const mode = process.argv[2]
const proxy = await new FakeProxy({ llm: scriptedLLM(['Hello.', 'Hi.']) }).start()

if (mode === 'load') {
  const afterStart = serverLoaded()
  const answer = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] }) })
  await answer.text()
  const afterHttp = serverLoaded()
  const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/v1/realtime?model=gpt-realtime`)
  const firstEvent = await new Promise<string>((resolve, reject) => {
    ws.addEventListener('message', (event) => resolve((JSON.parse(String(event.data)) as { type: string }).type), { once: true })
    ws.addEventListener('error', () => reject(new Error('the WebSocket failed')), { once: true })
  })
  const closed = new Promise((resolve) => ws.addEventListener('close', resolve, { once: true }))
  ws.close()
  await closed
  const afterUpgrade = serverLoaded()
  await proxy.close()
  console.log(JSON.stringify({ afterStart, afterHttp, afterUpgrade, firstEvent }))
} else {
  // An upgrade request written by hand, and the server closed at once: the upgrade is then
  // waiting for the WebSocket side to load (or, at worst, served already); either way the
  // client's socket must end, and nothing may keep this process alive.
  const { port } = new URL(proxy.url)
  const socket = connect(Number(port), '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  const ended = new Promise<string>((resolve) => socket.once('close', () => resolve('closed')))
  socket.on('error', () => {})
  // Read what comes (a 101 and events, if the side loaded first): a paused socket with unread
  // bytes never sees its end, and would leave this process with nothing to wait on.
  socket.resume()
  socket.write(
    'GET /v1/realtime?model=gpt-realtime HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\nconnection: Upgrade\r\n' +
      'sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n',
  )
  // The server has the request once its upgrade listener ran; the side's load takes far longer
  // in a fresh process than this turn of the loop.
  await new Promise((resolve) => setImmediate(resolve))
  await new Promise((resolve) => setImmediate(resolve))
  await proxy.close()
  const outcome = await ended
  console.log(JSON.stringify({ outcome, loadedWhenClosed: serverLoaded() }))
}
