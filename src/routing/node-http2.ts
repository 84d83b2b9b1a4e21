/**
 * The guard on `node:http2` `connect` (the AWS SDK's Bedrock client speaks HTTP/2). An HTTP/2
 * session is opened per origin before any request is known, so the guard decides at `connect`,
 * for the origin's root URL: a refused origin gets a session that fails at once (no socket is
 * opened), a routed one is opened to the route's origin, and each stream's `:path` is prefixed
 * with the route's path (a lane's `/~id`). Like `node-http.ts`, the hook is per process with a
 * stack of the realms' `decide` functions, kept on the `http2` module.
 * @module
 */
import http2 from 'node:http2'
import { syncBuiltinESMExports } from 'node:module'
import { Duplex } from 'node:stream'
import type { Decide } from './decision.js'
import { withHost } from './host-header.js'

type Connect = typeof http2.connect

interface Http2Hook {
  original: Connect
  installed: Connect
  deciders: Decide[]
}

const KEY = Symbol.for('agent-doubles.node-http2-hook')
const http2Module = http2 as unknown as { connect: Connect } & Record<symbol, Http2Hook | undefined>

function authorityUrl(authority: unknown): URL | undefined {
  try {
    const url = new URL(String(authority))
    return url.protocol === 'http:' || url.protocol === 'https:' ? new URL('/', url) : undefined
  } catch {
    return undefined // `connect` reports it
  }
}

/** A session that never connects and fails with `error` on the next tick: nothing is sent. */
function refusedSession(original: Connect, authority: URL, options: http2.ClientSessionOptions | undefined, error: Error): http2.ClientHttp2Session {
  const nowhere = new Duplex({ read() {}, write(_chunk, _encoding, callback) { callback() } })
  const session = original(authority, { ...options, createConnection: () => nowhere })
  process.nextTick(() => {
    session.destroy(error)
    nowhere.destroy()
  })
  return session
}

/** A session to `target`'s origin whose streams go under `target`'s path, `Host` fixed. */
function routedSession(original: Connect, target: URL, options: http2.ClientSessionOptions | undefined, listener: unknown): http2.ClientHttp2Session {
  const session = (original as (...a: unknown[]) => http2.ClientHttp2Session)(target.origin, options, listener)
  const prefix = target.pathname.replace(/\/+$/, '')
  const request = session.request.bind(session)
  session.request = ((headers: http2.OutgoingHttpHeaders = {}, streamOptions?: http2.ClientSessionRequestOptions) => {
    const path = String(headers[':path'] ?? '/')
    return request({ ...withHost(headers, target.host), ':authority': target.host, ':path': `${prefix}${path}` }, streamOptions)
  }) as typeof session.request
  return session
}

function guardedConnect(hook: Http2Hook): Connect {
  return function connect(authority: unknown, options?: unknown, listener?: unknown) {
    if (typeof options === 'function') [options, listener] = [undefined, options]
    const decide = hook.deciders.at(-1)
    const url = decide && authorityUrl(authority)
    const decision = url && decide?.(url, 'CONNECT')
    const sessionOptions = options as http2.ClientSessionOptions | undefined
    if (!url || !decision || decision.action === 'pass') return (hook.original as (...a: unknown[]) => http2.ClientHttp2Session)(authority, options, listener)
    if (decision.action === 'refuse') return refusedSession(hook.original, url, sessionOptions, decision.error)
    return routedSession(hook.original, decision.url, sessionOptions, listener)
  } as Connect
}

/** Puts `decide` in front of `http2.connect` until the returned function runs. */
export function hookNodeHttp2(decide: Decide): () => void {
  let hook = http2Module[KEY]
  if (!hook) {
    const created: Http2Hook = { original: http2Module.connect, installed: http2Module.connect, deciders: [] }
    created.installed = guardedConnect(created)
    hook = created
    http2Module[KEY] = hook
    http2Module.connect = hook.installed
    syncBuiltinESMExports()
  }
  const current = hook
  current.deciders.push(decide)
  let hooked = true
  return () => {
    if (!hooked) return
    hooked = false
    current.deciders.splice(current.deciders.lastIndexOf(decide), 1)
    if (current.deciders.length > 0) return
    if (http2Module[KEY] === current) delete http2Module[KEY]
    // Someone who replaced ours keeps theirs.
    if (http2Module.connect === current.installed) http2Module.connect = current.original
    syncBuiltinESMExports()
  }
}
