/**
 * The FakeProxy's hot path, one request at a time, in the order the real proxy works:
 * route → read and parse → identity → checks (SPEC §5.3) → pending refusals → answer → record.
 * Everything it needs is handed in as {@link ProxyState}; it keeps no state of its own.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { LLM, ModelRequest, StreamEvent } from '../llm/types.js'
import { handOver } from '../llm/helpers.js'
import { isProxyError } from '../proxy-error.js'
import type { RefusalCode } from '../refusal-codes.js'
import type { AgentBook } from './agent-book.js'
import type { RecordMode } from './record-mode.js'
import { handleAgentApi } from './agent-api.js'
import { checkModelRequestDetail } from './checks.js'
import { BadRequest, LLM_ERROR_PREFIX, asModelResponse, inputErrorBody, withFinish, type EncodeContext, type ModelDialect } from './dialect.js'
import { writeBrokenJson, type Fault, type FaultPlan } from './faults.js'
import { forwardableHeaders, readIdentity } from './identity.js'
import { refusalAnswer, type ErrorStyle } from './refusal-answer.js'
import { errorStyleForPath, findRoute, isAgentApiPath } from './routes.js'
import { readBody } from './server.js'
import { startSse, writeSse } from './sse.js'
import type { FakeRequest, ProxyFeature, Refusal } from './types.js'

/** A refusal planned with `proxy.refuse()`. */
export interface PendingRefusal {
  code: RefusalCode
  remaining: number
  message?: string
  hint?: string
}

/** A fixed answer planned with `proxy.reply()`. */
export interface ReplyPlan {
  body: unknown
  status: number
}

/** What the hot path reads and records into; owned by the FakeProxy. */
export interface ProxyState {
  readonly book: AgentBook
  readonly strict: boolean
  readonly features: ReadonlySet<ProxyFeature>
  /** The LLM answering model requests now. */
  brain(): LLM
  readonly requests: FakeRequest[]
  readonly refusals: Refusal[]
  readonly pendingRefusals: PendingRefusal[]
  readonly faults: FaultPlan
  reply: ReplyPlan | undefined
  /** Set in record mode: model requests of a dialect with an upstream are forwarded to it. */
  readonly recordMode: RecordMode | undefined
  /** A fresh id, unique within this proxy, for `x-request-id` and the answer's ids. */
  nextId(): string
}

/**
 * Headers of a 500 caused by the test's own double (a script that ran out or mismatched, a
 * throwing reply function): resending cannot help, so the SDKs are told not to retry. The AI
 * SDK ignores that and retries every 500; `retry-after-ms` makes it do so at once rather than
 * after its 2 s and 4 s backoff.
 */
const DOUBLE_FAULT = { 'x-should-retry': 'false', 'retry-after-ms': '1' }

/** Handles one HTTP request; never rejects for a request's own faults. */
export async function handleRequest(req: IncomingMessage, res: ServerResponse, state: ProxyState): Promise<void> {
  const id = state.nextId()
  const requestId = `req_${id}`
  const method = (req.method ?? 'GET').toUpperCase()
  const path = pathOf(req.url)
  const send = (status: number, body: unknown, headers: Record<string, string> = {}): void =>
    sendJson(res, requestId, status, JSON.stringify(body), headers)

  // Route.
  if (isAgentApiPath(path)) return serveAgentApi(req, state, { method, path, send })
  const route = findRoute(path)
  if (!route) {
    req.resume()
    return send(404, inputErrorBody(errorStyleForPath(path), 404, `no route for ${method} ${path}`))
  }
  const { dialect } = route
  if (method !== route.method) {
    req.resume()
    return send(405, inputErrorBody(dialect.errorStyle, 405, `${method} is not allowed on ${path}; use ${route.method}`), { allow: route.method })
  }

  // Read and parse.
  const parsed = await readJson(req, method === 'POST')
  if (parsed.kind === 'aborted') return
  if (parsed.kind === 'error') return send(parsed.status, inputErrorBody(dialect.errorStyle, parsed.status, parsed.message))
  let request: ModelRequest
  try {
    // Decoded here and kept unchanged, so a model double records it without copying it again.
    request = handOver(dialect.decode(parsed.json ?? {}))
  } catch (error) {
    if (!(error instanceof BadRequest)) throw error
    return send(400, inputErrorBody(dialect.errorStyle, 400, error.message, error.param))
  }

  // Identity.
  const identity = readIdentity(req.headers)
  const record: FakeRequest = {
    method,
    path,
    agent: identity.agent,
    definitionCid: identity.definitionCid,
    subagent: identity.subagent,
    headers: forwardableHeaders(req.headers),
    body: parsed.body,
    json: parsed.json,
    dialect: dialect.id,
    model: request.model === '' ? undefined : request.model,
    stream: request.stream,
    request,
  }
  // A request the upstream (or the brain standing in for it) refused did not get through.
  const withdraw = (): void => {
    const at = state.requests.indexOf(record)
    if (at !== -1) state.requests.splice(at, 1)
  }
  const refuse = (code: RefusalCode, detail: { message?: string; hint?: string }): void => {
    const answer = refusalAnswer(code, dialect.errorStyle, detail)
    state.refusals.push({ code, status: answer.status, request: record })
    send(answer.status, answer.body, answer.headers)
  }

  // Checks 1–5, then check 6: a pending refuse(). The model list is not model traffic, so
  // planned refusals, replies and faults wait for the next real model request.
  const failed = checkModelRequestDetail({ identity, book: state.book, strict: state.strict, features: state.features, needs: dialect.needs })
  if (failed) return refuse(failed.code, failed)
  const modelTraffic = dialect.id !== 'openai-models'
  const pending = modelTraffic ? takePendingRefusal(state.pendingRefusals) : undefined
  if (pending) return refuse(pending.code, pending)

  // Answer, and record.
  state.requests.push(record)
  const context: EncodeContext = { request, json: parsed.json ?? {}, id, created: Math.floor(Date.now() / 1000) }
  // Forwarded requests answer with the upstream's bytes: faults wait for one the fake answers.
  const forwarded = !(modelTraffic && state.reply) && state.recordMode?.originFor(dialect.id) !== undefined
  const fault = modelTraffic && !forwarded ? state.faults.take() : undefined
  if (fault?.kind === 'disconnect' && fault.afterChunks === 0) {
    // Cut before any answer exists: the brain is not asked, so a client's retry meets the turn
    // this request would have used.
    res.socket?.destroy()
    return
  }
  const answer = { res, requestId, style: dialect.errorStyle, fault }
  if (modelTraffic && state.reply) return answerWithReply(answer, state.reply, record)
  if (forwarded && state.recordMode) {
    const input = {
      dialect: dialect.id,
      method,
      path: req.url ?? path,
      headers: record.headers,
      body: parsed.body,
      request: dialect.kind === 'model' ? request : undefined,
    }
    const outcome = await state.recordMode.serve(input, res)
    if (outcome.response) record.response = outcome.response
    if (outcome.refusal) {
      withdraw()
      state.refusals.push({ code: outcome.refusal.code, status: outcome.refusal.status, request: record })
    }
    return
  }
  if (dialect.kind === 'direct') {
    return writeJson(answer, 200, dialect.answer(request, { ...context, headers: record.headers, path }))
  }
  const llm = state.brain()
  const brain = llm.session?.(`${identity.agent ?? ''}/${identity.subagent ?? ''}`) ?? llm
  const onBrainError = (error: unknown): void => {
    if (isProxyError(error)) {
      withdraw()
      return refuse(error.code, { message: error.message, hint: error.hint })
    }
    send(500, inputErrorBody(dialect.errorStyle, 500, `${LLM_ERROR_PREFIX} threw: ${messageOf(error)}`), DOUBLE_FAULT)
  }
  if (request.stream) return answerStream(answer, dialect, brain, context, record, onBrainError)
  let response
  try {
    response = asModelResponse(await brain.generate(request))
  } catch (error) {
    return onBrainError(error)
  }
  record.response = response
  return writeJson(answer, 200, dialect.encodeJson(response, context))
}

/** Where an answer goes, and the fault (if any) planned for it. */
interface AnswerTarget {
  res: ServerResponse
  requestId: string
  style: ErrorStyle
  fault: Fault | undefined
}

async function answerStream(
  answer: AnswerTarget,
  dialect: ModelDialect,
  brain: LLM,
  context: EncodeContext,
  record: FakeRequest,
  onBrainError: (error: unknown) => void,
): Promise<void> {
  // Pull the first event before answering, so an error at the start (a refusal from a
  // ScriptedLLM, say) is a proper HTTP status the clients read and retry, not a broken stream.
  // A brain that accepts the call before a wait (latency) has the headers sent at that point.
  const { res, requestId } = answer
  const leaving = new AbortController()
  // Only a connection lost before the answer ended is a client leaving (an abort is not cheap).
  res.once('close', () => res.writableEnded || leaving.abort())
  const options = { signal: leaving.signal, onAccepted: () => startSse(res, requestId) }
  let events: AsyncIterator<StreamEvent>
  let first: Promise<IteratorResult<StreamEvent>>
  try {
    events = withFinish(brain.stream(context.request, options), context.request.model)[Symbol.asyncIterator]()
    first = events.next()
    await first
  } catch (error) {
    // Once the headers are out, the error can only travel in the stream (recording rethrows it).
    if (!res.headersSent) return onBrainError(error)
    first = Promise.reject(error)
    first.catch(() => {})
  }
  const frames = dialect.encodeStream(recording(first, events!, record), context)
  await writeSse(res, requestId, frames, {
    fault: answer.fault,
    onError: (error, framesSent) => dialect.streamError(`${LLM_ERROR_PREFIX} stream failed: ${messageOf(error)}`, framesSent),
  })
}

/** The brain's events, first one included, noting the final response on the record. */
async function* recording(first: Promise<IteratorResult<StreamEvent>>, rest: AsyncIterator<StreamEvent>, record: FakeRequest): AsyncGenerator<StreamEvent> {
  try {
    for (let step = await first; !step.done; step = await rest.next()) {
      if (step.value.type === 'finish') record.response = asModelResponse(step.value.response)
      yield step.value
    }
  } finally {
    // The client left (or close() cut the socket): let the brain stop too.
    await rest.return?.()
  }
}

async function answerWithReply(answer: AnswerTarget, plan: ReplyPlan, record: FakeRequest): Promise<void> {
  let body = plan.body
  if (typeof body === 'function') {
    try {
      body = (body as (req: FakeRequest) => unknown)(structuredClone(record))
    } catch (error) {
      return writeJson(answer, 500, inputErrorBody(answer.style, 500, `[agent-doubles] FakeProxy reply() function threw: ${messageOf(error)}`), DOUBLE_FAULT)
    }
  }
  let text: string | undefined
  try {
    text = JSON.stringify(body)
  } catch (error) {
    text = undefined
    body = messageOf(error)
  }
  if (text === undefined) {
    const why = typeof body === 'string' ? body : `it is ${typeof body === 'function' ? 'a function' : String(body)}`
    return writeJson(answer, 500, inputErrorBody(answer.style, 500, `[agent-doubles] FakeProxy reply() body cannot be sent as JSON: ${why}`), DOUBLE_FAULT)
  }
  return writeText(answer, plan.status, text)
}

function writeJson(answer: AnswerTarget, status: number, body: unknown, headers?: Record<string, string>): Promise<void> {
  return writeText(answer, status, JSON.stringify(body), headers)
}

async function writeText(answer: AnswerTarget, status: number, text: string, headers: Record<string, string> = {}): Promise<void> {
  const { fault } = answer
  if (fault) return writeBrokenJson(answer.res, status, { ...jsonHeaders(answer.requestId), ...headers }, text, fault)
  sendJson(answer.res, answer.requestId, status, text, headers)
}

function jsonHeaders(requestId: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-request-id': requestId, 'request-id': requestId }
}

function sendJson(res: ServerResponse, requestId: string, status: number, text: string, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return
  res.writeHead(status, { ...headers, ...jsonHeaders(requestId), 'content-length': String(Buffer.byteLength(text)) })
  res.end(text)
}

async function serveAgentApi(
  req: IncomingMessage,
  state: ProxyState,
  { method, path, send }: { method: string; path: string; send: (status: number, body: unknown, headers?: Record<string, string>) => void },
): Promise<void> {
  const parsed = await readJson(req, method !== 'GET' && method !== 'HEAD')
  if (parsed.kind === 'aborted') return
  if (parsed.kind === 'error') return send(parsed.status, inputErrorBody('local', parsed.status, parsed.message))
  const answer = await handleAgentApi({ method, path, json: parsed.json }, { book: state.book, features: [...state.features] })
  if (!answer) return send(404, inputErrorBody('local', 404, `no route for ${method} ${path}`))
  send(answer.status, answer.body, answer.headers)
}

type ParsedBody =
  | { kind: 'ok'; body: Uint8Array; json: Record<string, unknown> | null }
  | { kind: 'error'; status: number; message: string }
  | { kind: 'aborted' }

/** Reads the body and parses it as a JSON object (when `expectJson`); bad input becomes 413/415/400. */
async function readJson(req: IncomingMessage, expectJson: boolean): Promise<ParsedBody> {
  const read = await readBody(req)
  if (read.kind === 'aborted') return read
  if (read.kind === 'too-large') return { kind: 'error', status: 413, message: 'request body is larger than the 32 MiB limit' }
  const { body } = read
  if (!expectJson || body.length === 0) {
    return expectJson ? { kind: 'error', status: 400, message: 'request body is empty; send a JSON object' } : { kind: 'ok', body, json: null }
  }
  const type = req.headers['content-type']
  if (type !== undefined && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return { kind: 'error', status: 415, message: `content-type must be application/json, got ${JSON.stringify(type)}` }
  }
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(body).toString('utf8'))
  } catch (error) {
    return { kind: 'error', status: 400, message: `request body is not valid JSON: ${messageOf(error)}` }
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { kind: 'error', status: 400, message: 'request body must be a JSON object' }
  }
  return { kind: 'ok', body, json: json as Record<string, unknown> }
}

/** The next pending refusal, consuming one of its times. */
function takePendingRefusal(pending: PendingRefusal[]): PendingRefusal | undefined {
  const next = pending[0]
  if (!next) return undefined
  if (--next.remaining <= 0) pending.shift()
  return next
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/'
  const query = raw.indexOf('?')
  return query === -1 ? raw : raw.slice(0, query)
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

