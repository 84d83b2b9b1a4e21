/**
 * The request deadline of SPEC §24 on HTTP/2 (the AWS SDK's Bedrock client): `requestTimeoutMs`
 * holds for HTTP/2 as for HTTP/1.1 (stall-guard.ts). A stream whose request has not fully arrived
 * (its client never ended it) when the deadline passes is answered 408 in JSON and closed; one
 * already answering is reset. A session with no stream open for that long (a client that sent the
 * preface and nothing else, or one left idle after its last answer) is closed with GOAWAY, as an
 * idle HTTP/1.1 connection is.
 * @module
 */
import { constants, type Http2Server, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2'
import type { ErrorBodyFor } from './crash-answer.js'

/** Gives every HTTP/2 session and stream of `http2` the deadline `timeoutMs`. */
export function guardHttp2Stalls(http2: Http2Server, timeoutMs: number, errorBody: ErrorBodyFor): void {
  const streams = new WeakMap<ServerHttp2Session, { open: number; idle: ReturnType<typeof setTimeout> | undefined }>()

  const armIdle = (session: ServerHttp2Session): void => {
    const state = streams.get(session)
    if (!state) return
    clearTimeout(state.idle)
    state.idle = setTimeout(() => {
      state.idle = undefined
      if (state.open === 0 && !session.destroyed) session.close()
    }, timeoutMs)
    // The socket, not this timer, is what keeps a server's process alive.
    state.idle.unref?.()
  }

  http2.on('session', (session: ServerHttp2Session) => {
    streams.set(session, { open: 0, idle: undefined })
    armIdle(session)
    session.once('close', () => clearTimeout(streams.get(session)?.idle))
  })

  http2.on('request', (req: Http2ServerRequest, res: Http2ServerResponse) => {
    const { stream } = req
    const session = stream.session as ServerHttp2Session | undefined
    const state = session && streams.get(session)
    if (state) {
      state.open++
      clearTimeout(state.idle)
      state.idle = undefined
    }
    const timer = setTimeout(() => expire(req, res), timeoutMs)
    timer.unref?.()
    stream.once('close', () => {
      clearTimeout(timer)
      if (state && --state.open === 0 && session && !session.destroyed) armIdle(session)
    })
  })

  const expire = (req: Http2ServerRequest, res: Http2ServerResponse): void => {
    const { stream } = req
    // Arrived in full (the client ended its side), though nobody read it to its end.
    if (stream.destroyed || stream.closed || stream.state.remoteClose) return
    if (res.headersSent) {
      stream.close(constants.NGHTTP2_CANCEL)
      return
    }
    const text = JSON.stringify(errorBody(408, `[agent-doubles] the request did not arrive within ${timeoutMs} ms (requestTimeoutMs)`, `${req.method} ${req.url} HTTP/2\r\n`))
    res.writeHead(408, { 'content-type': 'application/json', 'x-should-retry': 'false', 'content-length': String(Buffer.byteLength(text)) })
    // The answer, then RST_STREAM(NO_ERROR): the client is told to stop sending (RFC 9113 §8.1).
    res.end(text, () => stream.close(constants.NGHTTP2_NO_ERROR))
  }
}
