/**
 * What the fake answers when its own handler failed, over HTTP and in process alike: a JSON 500
 * in the route's error shape. Kept apart from the server so the in-process path loads without
 * `node:http`.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { utf8Length } from '../internal/bytes.js'
import { answerRouteCrash } from './route-crash.js'

/**
 * The JSON body of an answer the server writes by itself (an HTTP-level fault, a handler that
 * rejected). `head` is the start of the raw request when the server has it (a fault) and the
 * request line plus header names otherwise, so the body can take the route's own error shape.
 */
export type ErrorBodyFor = (status: number, message: string, head: string) => unknown

/** The OpenAI error shape: what a fault gets when nothing tells its route. */
export function openaiShape(status: number, message: string): unknown {
  return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } }
}

/**
 * A bug of the fake itself: 500 with `x-should-retry: false`, since sending the same request
 * again meets the same bug (without it the Anthropic SDK resends it three times).
 */
export function answerCrash(req: IncomingMessage, res: ServerResponse, error: unknown, errorBody: ErrorBodyFor): void {
  if (res.headersSent || res.destroyed) {
    res.destroy()
    return
  }
  if (answerRouteCrash(res, error)) return
  const message = `[agent-doubles] FakeProxy crashed on this request (a bug of agent-doubles): ${error instanceof Error ? error.message : String(error)}`
  const head = `${req.method ?? 'GET'} ${req.url ?? '/'}\r\n${Object.keys(req.headers).map((name) => `${name}:`).join('\r\n')}`
  const text = JSON.stringify(errorBody(500, message, head))
  res.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false', 'content-length': String(utf8Length(text)) })
  res.end(text)
}
