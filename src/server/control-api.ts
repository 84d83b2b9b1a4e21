/**
 * The control API under `/_agent-doubles/` (SPEC §15): what a test suite in another language
 * needs to drive a running `agent-doubles serve` — read the records, reset, load a script, plan
 * refusals and provider errors. Served only when the proxy is made with `controlApi: true`.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { PREFIX } from '../internal/describe.js'
import type { LLM } from '../llm/types.js'
import { RulesUnsupported, llmFromScriptText } from '../llm/load-script.js'
import { utf8Length, utf8Text } from '../internal/bytes.js'
import { readBody } from './read-body.js'
import { refuseNonLocal } from './local-only.js'
import { redactHeaders } from './redact.js'
import type { FakeRequest, Refusal } from './types.js'

/** Where the control API's routes live. */
export const CONTROL_PREFIX = '/_agent-doubles/'

/** Whether `path` is one of the control API's. */
export function isControlPath(path: string): boolean {
  return path.startsWith(CONTROL_PREFIX)
}

/** What the control API acts on; the FakeProxy hands in its own methods. @internal */
export interface ControlTarget {
  requests(): readonly FakeRequest[]
  refusals(): readonly Refusal[]
  /** Clears the records and plans, and rewinds the brain. */
  reset(): void
  use(llm: LLM): void
  refuse(code: string, options: { times?: number; message?: string }): void
  /** `proxy.providerError` (SPEC §10.2), when this build has it. */
  providerError: ((name: string, options: { times?: number; message?: string; retryAfterS?: number }) => void) | undefined
  /** `proxy.misbehave` (SPEC §19). */
  misbehave(kind: string, options: Record<string, unknown>): void
  /** `proxy.chaos` (SPEC §19); `false` turns it off. */
  chaos(options: Record<string, unknown> | false): void
}

interface Answer {
  status: number
  body: unknown
}

const ok: Answer = { status: 200, body: { ok: true } }
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i
const NDJSON_TYPE = /^application\/(?:x-)?ndjson\b/i

type Route = (req: IncomingMessage, target: ControlTarget) => Answer | Promise<Answer>

const routes: Readonly<Record<string, Readonly<Record<string, Route>>>> = {
  health: { GET: () => ({ status: 200, body: { ok: true } }) },
  requests: { GET: (_req, target) => ({ status: 200, body: target.requests().map(requestRecord) }) },
  refusals: { GET: (_req, target) => ({ status: 200, body: target.refusals().map((r) => ({ ...r, request: requestRecord(r.request) })) }) },
  reset: {
    POST: (req, target) => {
      req.resume()
      target.reset()
      return ok
    },
  },
  script: { PUT: putScript },
  refuse: { POST: postRefuse },
  'provider-error': { POST: postProviderError },
  misbehave: { POST: postMisbehave },
  chaos: { POST: postChaos, DELETE: deleteChaos },
}

/** Serves one control API request; answers every outcome, bad input included, as JSON. */
export async function handleControlApi(req: IncomingMessage, res: ServerResponse, path: string, target: ControlTarget): Promise<void> {
  const name = path.slice(CONTROL_PREFIX.length).replace(/\/+$/, '')
  const method = (req.method ?? 'GET').toUpperCase()
  const route = Object.hasOwn(routes, name) ? routes[name] : undefined
  let answer: Answer
  const refused = refuseNonLocal(req)
  if (refused) {
    req.resume()
    answer = failure(refused.status, refused.message)
  } else if (!route) {
    req.resume()
    answer = failure(404, `no control route ${method} ${path}; routes: ${describeRoutes()}`)
  } else if (!Object.hasOwn(route, method)) {
    req.resume()
    answer = failure(405, `${method} is not allowed on ${path}; use ${Object.keys(route).join(', ')}`)
  } else {
    try {
      answer = await route[method](req, target)
    } catch (error) {
      answer = error instanceof RulesUnsupported ? failure(501, error.message) : failure(400, messageOf(error))
    }
  }
  if (res.destroyed || res.headersSent) return
  const text = JSON.stringify(answer.body)
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(utf8Length(text)) }
  if (answer.status === 405 && route) headers.allow = Object.keys(route).join(', ')
  res.writeHead(answer.status, headers)
  res.end(text)
}

/** A record as JSON: the body as the text it was sent as, not a byte array; credentials masked. */
function requestRecord(record: FakeRequest): Record<string, unknown> {
  return { ...record, headers: redactHeaders(record.headers), body: utf8Text(record.body) }
}

async function putScript(req: IncomingMessage, target: ControlTarget): Promise<Answer> {
  const type = req.headers['content-type'] ?? ''
  const format = NDJSON_TYPE.test(type) ? 'transcript' : JSON_TYPE.test(type) ? 'json' : undefined
  const text = await readText(req)
  if (typeof text !== 'string') return text
  if (!format) {
    return failure(415, `content-type must be application/x-ndjson (a transcript) or application/json (a script or rules), got ${JSON.stringify(type)}`)
  }
  target.use(await llmFromScriptText(text, format, 'PUT /_agent-doubles/script'))
  return ok
}

async function postRefuse(req: IncomingMessage, target: ControlTarget): Promise<Answer> {
  const json = await readObject(req)
  if ('status' in json) return json
  const { code, times, message, ...rest } = json.value
  const unknown = Object.keys(rest)
  if (unknown.length > 0) return failure(400, `unknown field ${unknown.join(', ')}; send { code, times?, message? }`)
  target.refuse(code as string, { times: times as number | undefined, message: message as string | undefined })
  return ok
}

async function postProviderError(req: IncomingMessage, target: ControlTarget): Promise<Answer> {
  const json = await readObject(req)
  if ('status' in json) return json
  if (!target.providerError) {
    return failure(501, 'provider errors need FakeProxy.providerError, which this build of agent-doubles does not have')
  }
  const { name, times, message, retryAfterS, ...rest } = json.value
  const unknown = Object.keys(rest)
  if (unknown.length > 0) return failure(400, `unknown field ${unknown.join(', ')}; send { name, times?, message?, retryAfterS? }`)
  const options = Object.fromEntries(Object.entries({ times, message, retryAfterS }).filter(([, value]) => value !== undefined))
  target.providerError(name as string, options)
  return ok
}

/** `POST misbehave` `{ kind, times?, at?, text?, tool? }`: `proxy.misbehave(kind, options)`. */
async function postMisbehave(req: IncomingMessage, target: ControlTarget): Promise<Answer> {
  const json = await readObject(req)
  if ('status' in json) return json
  const { kind, ...options } = json.value
  target.misbehave(kind as string, options)
  return ok
}

/** `POST chaos` `{ seed?, rate, kinds? }`: `proxy.chaos(options)`. */
async function postChaos(req: IncomingMessage, target: ControlTarget): Promise<Answer> {
  const json = await readObject(req)
  if ('status' in json) return json
  target.chaos(json.value)
  return ok
}

/** `DELETE chaos`: `proxy.chaos(false)`. */
function deleteChaos(req: IncomingMessage, target: ControlTarget): Answer {
  req.resume()
  target.chaos(false)
  return ok
}

async function readText(req: IncomingMessage): Promise<string | Answer> {
  const read = await readBody(req)
  if (read.kind === 'too-large') return failure(413, 'request body is larger than the 32 MiB limit')
  if (read.kind === 'aborted') return failure(400, 'the request was aborted')
  return utf8Text(read.body)
}

async function readObject(req: IncomingMessage): Promise<{ value: Record<string, unknown> } | Answer> {
  const type = req.headers['content-type']
  const text = await readText(req)
  if (typeof text !== 'string') return text
  if (type !== undefined && !JSON_TYPE.test(type)) return failure(415, `content-type must be application/json, got ${JSON.stringify(type)}`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return failure(400, `request body is not valid JSON: ${messageOf(error)}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return failure(400, 'request body must be a JSON object')
  return { value: value as Record<string, unknown> }
}

function failure(status: number, message: string): Answer {
  const text = message.startsWith(PREFIX) ? message : `${PREFIX} control API: ${message}`
  const code = status >= 500 ? 'not_implemented' : status === 403 ? 'forbidden' : 'invalid_request'
  return { status, body: { error: { code, message: text } } }
}

function describeRoutes(): string {
  return Object.entries(routes)
    .flatMap(([name, methods]) => Object.keys(methods).map((method) => `${method} ${CONTROL_PREFIX}${name}`))
    .join(', ')
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
