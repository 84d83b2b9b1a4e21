/**
 * An HTTP upgrade (WebSocket) that nothing on the server serves reaches the request handler as
 * a plain GET. Answered with `426 Upgrade Required` in the route's error shape: a 404 or 405
 * makes Codex reconnect five times (~6.4 s) before it falls back to SSE; a 426 makes it fall
 * back at once (SPEC §17). The request is recorded with `side: true`, so a test sees it while
 * matchers leave it out. The upgrades the server does serve (SPEC §18) never get here.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { utf8Length } from '../internal/bytes.js'
import { inputErrorBody } from '../wire/dialect.js'
import type { FakeRequest } from './types.js'
import { errorStyleFor, findRoute } from '../wire/dialects.js'
import { turnedAwayRecord } from './turned-away.js'

/** Whether `req` asks to switch protocols. */
export function isUpgrade(req: IncomingMessage): boolean {
  return req.headers.upgrade !== undefined && /\bupgrade\b/i.test(String(req.headers.connection ?? ''))
}

/** Answers an upgrade nothing serves with a 426, and returns its record. */
export function answerUnservedUpgrade(req: IncomingMessage, res: ServerResponse, path: string, lane: string | undefined): FakeRequest {
  req.resume()
  const protocol = String(req.headers.upgrade)
  const message = `[agent-doubles] FakeProxy does not serve ${protocol} on ${path}; use plain HTTP (SSE) instead`
  const style = findRoute(path)?.dialect.errorStyle ?? errorStyleFor(path, req.headers)
  const text = JSON.stringify(inputErrorBody(style === 'local' ? 'openai' : style, 426, message))
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(426, { 'content-type': 'application/json', 'content-length': String(utf8Length(text)), 'x-should-retry': 'false', connection: 'close' })
    res.end(text)
  }
  return turnedAwayRecord(req, path, { status: 426, message }, { lane, side: true })
}
