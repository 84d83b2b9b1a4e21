/**
 * Records of requests the fake turned away before a lane's brain saw them (SPEC §17): the 409
 * of a request that names no lane while several tests run, the 404 of a closed lane, an
 * upgrade the server does not serve. They go into `proxy.requests` with their `status`, so a
 * test can see why its runtime got no answer.
 * @module
 */
import type { IncomingMessage } from 'node:http'
import { forwardableHeaders, readIdentity } from '../gateway/identity.js'
import { findRoute } from '../wire/dialects.js'
import type { Dialect, FakeRequest } from './types.js'

const EMPTY = new Uint8Array(0)

/**
 * The record of a request answered `status` with `message` before any lane served it; its body
 * is not read (`body` empty, `json` null). `side` marks what a runtime did on its own (an upgrade
 * it falls back from), which matchers leave out unless asked; `dialect` names the WebSocket
 * transport of a refused upgrade (else it is read from the path); `body` keeps the bytes of a
 * body that was read but refused unparsed (one over `maxBodyValues`).
 */
export function turnedAwayRecord(
  req: IncomingMessage,
  path: string,
  answer: { status: number; message: string },
  detail: { lane?: string; side?: boolean; dialect?: Dialect; body?: Uint8Array } = {},
): FakeRequest {
  const identity = readIdentity(req.headers)
  const dialect: Dialect = detail.dialect ?? findRoute(path)?.dialect.id ?? (path.includes('messages') ? 'anthropic-messages' : 'openai-chat')
  const record: FakeRequest = {
    lane: detail.lane,
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    agent: identity.agent,
    definitionCid: identity.definitionCid,
    subagent: identity.subagent,
    headers: forwardableHeaders(req.headers),
    body: detail.body ?? EMPTY,
    json: null,
    dialect,
    model: undefined,
    stream: false,
    request: { model: '', messages: [], stream: false },
    status: answer.status,
    error: { type: 'invalid_request_error', code: null, param: null, message: answer.message },
  }
  if (detail.side) record.side = true
  return record
}

/** The path of a request URL, without its query. */
export function pathOf(url: string | undefined): string {
  const raw = url ?? '/'
  const query = raw.indexOf('?')
  return query === -1 ? raw : raw.slice(0, query)
}
