/**
 * Garbage per request on the server: what FakeProxy + ScriptedLLM allocates answering one
 * request, against the floor (the bare `node:http` server sending the same bytes), counted by V8's
 * sampling heap profiler with collected objects kept in the count. In one process with the SDK
 * clients (the wire benchmarks' setting) every young-generation collection also copies the
 * client's live objects, so a server's garbage sets how often the whole process pays for that.
 *
 * One child process (`--expose-gc`) holds the servers and a minimal client: a raw HTTP/1.1
 * request written to a kept-alive socket, the answer counted in bytes and never decoded, so
 * the client's own share is the same small amount for every server.
 *
 * Prints one JSON line: bytes per request per case.
 */
import { Session } from 'node:inspector/promises'
import { connect, type Socket } from 'node:net'
import { bodies, startServers } from '../proxy/servers.js'

const warm = 2000
const measured = Number(process.argv[2] ?? 3000)

const cases = {
  json: ['/v1/chat/completions', bodies.chat],
  chatStream: ['/v1/chat/completions', bodies.chatStream],
  messagesStream: ['/v1/messages', bodies.messagesStream],
} as const

/** A client on one kept-alive socket that sends `request` and waits for `length` bytes back. */
async function rawClient(url: string, path: string, body: unknown): Promise<{ once(): Promise<void>; close(): void }> {
  const { port } = new URL(url)
  const text = JSON.stringify(body)
  const request = Buffer.from(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nauthorization: Bearer k\r\nx-api-key: k\r\n` +
      `anthropic-version: 2023-06-01\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  )
  const socket: Socket = connect(Number(port), '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.setNoDelay(true)
  let expected = 0
  let received = 0
  let done: (() => void) | undefined
  let head = Buffer.alloc(0)
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length
    // The first answer is read to its end (`0\r\n\r\n` or its content-length) to learn its size;
    // every later answer of this case has the same size (ids and dates keep their length).
    if (expected === 0) {
      head = Buffer.concat([head, chunk])
      const text = head.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      const length = /content-length: (\d+)/i.exec(text.slice(0, end))
      const complete = length ? text.length - end - 4 >= Number(length[1]) : text.endsWith('\r\n0\r\n\r\n')
      if (!complete) return
      expected = received
    }
    if (received >= expected) {
      received = 0
      done?.()
    }
  })
  return {
    once: () => new Promise<void>((resolve) => ((done = resolve), socket.write(request))),
    close: () => socket.destroy(),
  }
}

const session = new Session()
session.connect()
const servers = await startServers()
const results: Record<string, number> = {}
for (const [name, [path, body]] of Object.entries(cases)) {
  for (const [server, url] of [['floor', servers.bare], ['proxy', servers.proxy.url]] as const) {
    const client = await rawClient(url, path, body)
    for (let i = 0; i < warm; i++) {
      await client.once()
      if (i % 1000 === 999) servers.proxy.reset()
    }
    servers.proxy.reset()
    globalThis.gc?.()
    await session.post('HeapProfiler.startSampling', { samplingInterval: 128, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true })
    for (let i = 0; i < measured; i++) {
      await client.once()
      // Records are cleared now and then, as the wire benchmarks do.
      if (i % 1000 === 999) servers.proxy.reset()
    }
    const { profile } = await session.post('HeapProfiler.stopSampling')
    client.close()
    let bytes = 0
    const visit = (node: typeof profile.head): void => {
      bytes += node.selfSize
      node.children.forEach(visit)
    }
    visit(profile.head)
    results[`${name}.${server}`] = bytes / measured
  }
}
await servers.close()
session.disconnect()
console.log(JSON.stringify(results))
