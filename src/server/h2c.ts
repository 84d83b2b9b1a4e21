/**
 * HTTP/2 in cleartext beside HTTP/1.1 on one port. The AWS SDK's default Bedrock client speaks
 * HTTP/2 with prior knowledge to an `http://` endpoint: its connection opens with the
 * `PRI * HTTP/2.0` preface instead of a request line. Each new socket's first bytes decide
 * which server gets it.
 * @module
 */
import type { Server as HttpServer } from 'node:http'
import type { Http2Server } from 'node:http2'
import type { Socket } from 'node:net'
import { Duplex } from 'node:stream'

/** The first bytes of every HTTP/2 connection (RFC 9113 §3.4). */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n')

/**
 * Hands `socket` to `http2` when it opens with the HTTP/2 preface, else to `http1`, once enough
 * bytes arrived to tell. The HTTP/1.1 parser reads the bytes put back on the socket; the HTTP/2
 * session reads the socket's native handle, which no longer has them, so it gets a stream that
 * replays them and then relays the socket.
 */
export function routeByPreface(socket: Socket, http1: HttpServer, http2: Http2Server, onHttp2?: () => void): void {
  let seen = Buffer.alloc(0)
  const onData = (chunk: Buffer): void => {
    seen = Buffer.concat([seen, chunk])
    const compared = Math.min(seen.length, PREFACE.length)
    const isHttp2 = seen.subarray(0, compared).equals(PREFACE.subarray(0, compared))
    if (isHttp2 && seen.length < PREFACE.length) return
    socket.off('data', onData)
    if (isHttp2) {
      onHttp2?.()
      http2.emit('connection', relay(socket, seen))
      return
    }
    socket.pause()
    socket.unshift(seen)
    http1.emit('connection', socket)
    socket.resume()
  }
  socket.on('data', onData)
}

/** A stream that yields `first`, then whatever `socket` reads, and writes to `socket`. */
function relay(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read: () => socket.resume(),
    write: (chunk: Buffer, _encoding, done) => {
      if (socket.destroyed) done()
      else socket.write(chunk, () => done())
    },
    final: (done) => {
      socket.end()
      done()
    },
    destroy: (error, done) => {
      socket.destroy()
      done(error)
    },
  })
  stream.push(first)
  socket.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause()
  })
  socket.once('end', () => stream.push(null))
  socket.once('close', () => stream.destroy())
  socket.once('error', (error) => stream.destroy(error))
  return stream
}
