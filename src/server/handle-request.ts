/**
 * The FakeProxy's hot path, one request at a time, in the order the real proxy works:
 * route → read and parse → identity → checks (SPEC §5.3) → pending refusals → answer → record.
 * Everything it needs is handed in as {@link ProxyState}; it keeps no state of its own.
 * @module
 */
import { BRAIN_FAILURE_HEADERS, BRAIN_FAILURE_STATUS, brainFailure, brainFailureMessage } from './brain-failure.js'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { LLM, ModelRequest, ModelResponse, StreamEvent, StreamOptions } from '../llm/types.js'
import { eventsAtOnce, type MaybeAtOnce } from '../llm/stream-events.js'
import { isProviderError, type ProviderErrorName } from '../provider-errors.js'
import { handOver } from '../llm/helpers.js'
import { isProxyError } from '../gateway/proxy-error.js'
import type { RefusalCode } from '../gateway/refusal-codes.js'
import type { AgentBook } from '../gateway/agent-book.js'
import type { RecordMode } from '../upstream/record-mode.js'
import { handleAgentApi } from '../gateway/agent-api.js'
import { handleControlApi, isControlPath, type ControlTarget } from './control-api.js'
import { checkModelRequestDetail } from '../gateway/checks.js'
import {
  BadRequest,
  LLM_ERROR_PREFIX,
  asModelResponse,
  inputErrorBody,
  type EncodeContext,
  type ErrorAnswer,
  type ModelDialect,
  type RequestTarget,
  type SseFrame,
  type StreamFraming,
  type WireDialect,
} from '../wire/dialect.js'
import { writeBrokenJson, type Fault, type FaultPlan } from './faults.js'
import { forwardableHeaders, readIdentity } from '../gateway/identity.js'
import { openaiProviderError } from '../wire/openai-chat/errors.js'
import { withRequestId } from '../wire/anthropic-messages/errors.js'
import { providerHeadersAt, requestIdKind } from '../wire/provider-headers.js'
import { answerHeaders, type AnswerHead } from './answer-head.js'
import { refusalAnswer, type ErrorStyle } from '../gateway/refusal-answer.js'
import { errorStyleFor, findRoute, isAgentApiPath, providerForUnknownPath } from '../wire/dialects.js'
import { nestsDeeperThan } from './json-depth.js'
import type { ResponseMemory } from '../wire/response-memory.js'
import { readBody } from './read-body.js'
import { LARGE_BODY, bodyErrors, parseLargeBody, turnFor } from './large-body.js'
import { tooManyValuesMessage, valuesOver } from './body-values.js'
import { turnedAwayRecord } from './turned-away.js'
import { ownGetter } from '../internal/own-getter.js'
import { utf8Body } from '../internal/bytes.js'
import { closed, startSse } from './sse.js'
import { drainedOrClosed } from './drained.js'
import { BrainEvents } from './brain-events.js'
import { renameToolCalls, toolCallIdRenamer } from '../wire/tool-call-ids.js'
import { INVALID_REQUEST, rejectionBody } from '../wire/validate.js'
import { onRouteCrash } from './route-crash.js'
import { embed as deterministicVector } from '../wire/openai-embeddings/codec.js'
import { openStream, startFramed, type StreamOutput } from './framing.js'
import type { Dialect, FakeRequest, ProxyFeature, Refusal } from './types.js'
import { wireId } from '../wire/wire-ids.js'
import { cacheRecord, isMeasure, measurePrompt, promptUsage, withPromptUsage, type PromptMeasure, type PromptSettings } from './prompt-usage.js'
import { sideBrain, sideRuleFor } from './side-requests.js'
import type { Misbehaviour } from '../llm/misbehave.js'
import { chaosAnswer, type ChaosState } from './chaos-answer.js'
import { misbehavingBrain } from './misbehaving-brain.js'
import { pacedBrain, type PacingOptions } from './pacing.js'
import type { RateWindow } from './rate-limit.js'

/** A refusal planned with `proxy.refuse()`. */
export interface PendingRefusal {
  code: RefusalCode
  remaining: number
  message?: string
  hint?: string
}

/** A provider error planned with `proxy.providerError()`. */
export interface PendingProviderError {
  name: ProviderErrorName
  remaining: number
  message?: string
  retryAfterS?: number
}

/** A misbehaviour planned with `proxy.misbehave()` (SPEC §19). */
export interface PendingMisbehaviour {
  misbehaviour: Misbehaviour
  remaining: number
}

/** A fixed answer planned with `proxy.reply()`. */
export interface ReplyPlan {
  body: unknown
  status: number
}

/** What the hot path reads and records into; owned by the FakeProxy. */
export interface ProxyState {
  /** The lane's name, carried by its records; `undefined` on a proxy. */
  readonly lane: string | undefined
  readonly book: AgentBook
  readonly strict: boolean
  readonly features: ReadonlySet<ProxyFeature>
  /** The LLM answering model requests now. */
  brain(): LLM
  readonly requests: FakeRequest[]
  readonly refusals: Refusal[]
  readonly pendingRefusals: PendingRefusal[]
  readonly pendingProviderErrors: PendingProviderError[]
  readonly faults: FaultPlan
  readonly pendingMisbehaviours: PendingMisbehaviour[]
  /** Seeded chaos (SPEC §19), when it is on. */
  chaos: ChaosState | undefined
  /** How streamed answers are paced (SPEC §19), when they are. */
  readonly pacing: PacingOptions | undefined
  /** The rate-limit window (SPEC §19), when limits are set. */
  readonly rateWindow: RateWindow | undefined
  reply: ReplyPlan | undefined
  /** Set in record mode: model requests of a dialect with an upstream are forwarded to it. */
  readonly recordMode: RecordMode | undefined
  /** A fresh seed, unique within this proxy, for the request id and the answer's ids (see `wireId`). */
  nextId(): string
  /** Whether requests are checked as the providers check them (SPEC §10.3). */
  readonly validate: boolean
  /** The Responses this proxy answered, for `previous_response_id` and `item_reference`. */
  readonly memory: ResponseMemory
  /** Set when the control API (`/_agent-doubles/`) is served. */
  readonly control?: ControlTarget
  /** Token counting and the prompt cache (SPEC §20); `undefined` when both are off. */
  readonly prompt?: PromptSettings
  /** The most JSON values a request body may hold (SPEC §24; body-values.ts). */
  readonly maxBodyValues: number
}

/**
 * Headers of a 500 caused by the test's own double (a script that ran out or mismatched, a
 * throwing reply function): resending cannot help, so the SDKs are told not to retry. The AI
 * SDK ignores that and retries every 500; `retry-after-ms` makes it do so at once rather than
 * after its 2 s and 4 s backoff.
 */
const DOUBLE_FAULT = { 'x-should-retry': 'false', 'retry-after-ms': '1' }

/**
 * Handles one HTTP request; never rejects for a request's own faults. `session` is the id of the
 * WebSocket session a request stands in for (a Responses `response.create`), kept on its record.
 */
export async function handleRequest(req: IncomingMessage, res: ServerResponse, state: ProxyState, session?: string): Promise<void> {
  const id = state.nextId()
  const started = Date.now()
  const now = Math.floor(started / 1000)
  const method = (req.method ?? 'GET').toUpperCase()
  const path = pathOf(req.url)
  const target: RequestTarget = new LazyTarget(path, req.url)

  // Route; the answer's request id and headers take the format of the provider it speaks for.
  const agentApi = isAgentApiPath(path)
  const route = agentApi ? undefined : findRoute(path)
  const style = route ? route.dialect.errorStyle : errorStyleFor(path, req.headers)
  const requestId = style === 'local' ? `req_${id}` : wireId(requestIdKind(style), id)
  const head: AnswerHead = { requestId, provider: providerHeadersAt(style, now) }
  // The time "processing" took, as OpenAI reports it: what the fake spent before answering
  // (updated once a model request is read and checked).
  if (style === 'openai') head.processingMs = '0'
  const send = (status: number, body: unknown, headers: Record<string, string> = {}): void =>
    sendJson(res, head, status, JSON.stringify(body), headers)
  const sendError = (dialect: WireDialect, status: number, message: string, param?: string, headers: Record<string, string> = {}): void => {
    const error = errorAnswer(dialect, status, message, param)
    // Anthropic's error bodies carry the request id, the fake's own ones too (SPEC §21).
    send(status, withRequestId(error.body, requestId), { ...error.headers, ...headers })
  }

  if (state.control && isControlPath(path)) return handleControlApi(req, res, path, state.control)
  if (agentApi) return serveAgentApi(req, state, { method, path, send })
  if (!route) {
    req.resume()
    const provider = providerForUnknownPath(path)
    if (provider) return sendError(provider, 404, `no route for ${method} ${path}`)
    return send(404, withRequestId(inputErrorBody(style, 404, `no route for ${method} ${path}`), requestId))
  }
  const { dialect } = route
  // A bug of the fake from here on is answered in this provider's shape, and recorded (SPEC §24).
  let crashRecord: FakeRequest | undefined
  onRouteCrash(res, (error) => {
    if (res.headersSent || res.destroyed) return false
    const message = `[agent-doubles] FakeProxy crashed on this request (a bug of agent-doubles): ${messageOf(error)}`
    if (crashRecord) {
      crashRecord.status = 500
      crashRecord.error = { type: 'api_error', code: null, param: null, message }
      if (!state.requests.includes(crashRecord)) state.requests.push(crashRecord)
    }
    sendError(dialect, 500, message, undefined, DOUBLE_FAULT)
    return true
  })
  if (method !== route.method) {
    req.resume()
    const error = errorAnswer(dialect, 405, `${method} is not allowed on ${path}; use ${route.method}`)
    return send(405, error.body, { ...error.headers, allow: route.method })
  }

  // Read and parse.
  const parsed = await readJson(req, method === 'POST', state.maxBodyValues, dialect.anyContentType)
  if (parsed.kind === 'aborted') return
  if (parsed.kind === 'error') {
    // A JSON request over the bound on values was meant as one: recorded with its 400 (SPEC §24).
    if (parsed.tooMany) state.requests.push(turnedAwayRecord(req, path, parsed, { lane: state.lane, dialect: dialect.id, body: parsed.tooMany }))
    return sendError(dialect, parsed.status, parsed.message)
  }
  let json = parsed.json ?? {}
  // A malformed field `prepare` finds (Vertex's `anthropic_version`) is recorded like the
  // decoder's; a route's own answer (Azure's 404 for a missing `api-version`) is not.
  let prepareRejection: BadRequest | undefined
  try {
    json = dialect.prepare?.(json, target) ?? json
  } catch (error) {
    if (!(error instanceof BadRequest)) throw error
    if (error.status !== 400) return sendError(dialect, error.status, error.message, error.param)
    prepareRejection = error
  }
  // The model list is not model traffic: planned refusals, replies and faults wait for the next
  // real model request. Forwarded requests answer with the upstream's bytes.
  // A runtime's own request (SPEC §17) is no turn of the test's: no plan applies to it.
  const side = sideRuleFor({ dialect: dialect.id, json, headers: req.headers })
  const modelTraffic = dialect.modelTraffic !== false && !side
  const forwarded = !(modelTraffic && state.reply) && state.recordMode?.originFor(dialect.id) !== undefined
  // Checked as the provider checks it, unless record mode sends it to the provider itself.
  const violation = state.validate && !forwarded && !prepareRejection ? dialect.validate?.(json, state.memory, req.headers) : undefined
  const afterValidation = turnFor(parsed.body)
  if (afterValidation) await afterValidation
  let request: ModelRequest
  let decodeRejection: BadRequest | undefined
  try {
    if (prepareRejection) throw prepareRejection
    // Decoded here and kept unchanged, so a model double records it without copying it again.
    request = handOver(dialect.decode(json, target, state.memory))
  } catch (error) {
    if (!(error instanceof BadRequest)) throw error
    if (!violation) {
      // A status other than 400 (a route's own answer) is not the client's malformed field.
      if (error.status !== 400) return sendError(dialect, error.status, error.message, error.param)
      // What the decoder rejects is recorded like what the validator rejects (SPEC §24).
      decodeRejection = error
    }
    // Rejected anyway: recorded with what can be read of it.
    request = { model: typeof json.model === 'string' ? json.model : '', messages: [], stream: json.stream === true }
  }

  const afterDecoding = turnFor(parsed.body)
  if (afterDecoding) await afterDecoding
  // Identity.
  const identity = readIdentity(req.headers)
  const record: FakeRequest = {
    lane: state.lane,
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
  if (side) record.side = true
  if (session !== undefined) record.session = session
  crashRecord = record
  // What the decoder rejects is answered as before any check, and recorded (SPEC §24).
  if (decodeRejection) {
    const { message, param, detail } = decodeRejection
    state.requests.push({ ...record, status: 400, error: { type: detail.type ?? INVALID_REQUEST, code: detail.code ?? null, param: param ?? null, message } })
    // A provider with an error shape of its own answers in it.
    if (dialect.errorAnswer) return sendError(dialect, 400, message, param)
    return send(400, rejectionBody(dialect.errorStyle, { message, param: param ?? null, code: detail.code ?? null }, requestId, detail.type))
  }
  // A request the upstream (or the brain standing in for it) refused did not get through.
  const withdraw = (): void => {
    const at = state.requests.indexOf(record)
    if (at !== -1) state.requests.splice(at, 1)
  }
  const refuse = (code: RefusalCode, detail: { message?: string; hint?: string }): void => {
    const answer = refusalAnswer(code, dialect.errorStyle, detail)
    state.refusals.push({ code, status: answer.status, request: record })
    // Providers with an error shape of their own carry the refusal in it; the mark header stays.
    const own = dialect.errorAnswer?.(answer.status, detail.message ?? String((answer.body as { error?: { message?: unknown } }).error?.message ?? code), code)
    // Anthropic's bodies carry the request id, refusals too (SPEC §21).
    send(answer.status, own ? own.body : withRequestId(answer.body, requestId), { ...answer.headers, ...own?.headers })
  }

  // Checks 1–5, then check 6: a pending refuse().
  const failed = checkModelRequestDetail({ identity, book: state.book, strict: state.strict, features: state.features, needs: dialect.needs })
  if (failed) return refuse(failed.code, failed)
  const pending = modelTraffic ? takePending(state.pendingRefusals) : undefined
  if (pending) return refuse(pending.code, pending)

  if (violation) {
    const error = { type: INVALID_REQUEST, code: violation.code, param: violation.param, message: violation.message }
    state.requests.push({ ...record, status: 400, error })
    return send(400, rejectionBody(dialect.errorStyle, violation, requestId))
  }

  // Answer, and record.
  state.requests.push(record)
  const context: EncodeContext = { request, json, id, created: now, memory: state.memory, target }
  // The time "processing" took, as OpenAI reports it: what the fake spent before answering.
  if (style === 'openai') head.processingMs = String(Date.now() - started)
  const answerProviderError = (planned: { name: ProviderErrorName; message?: string; retryAfterS?: number }): Promise<void> =>
    sendProviderError(res, record, planned, { dialect, context, head, model: record.model, now })
  const plannedError = modelTraffic ? takePending(state.pendingProviderErrors) : undefined
  if (plannedError) return answerProviderError(plannedError)
  // Tokens, the model's context window and the lane's prompt cache (SPEC §20).
  let measure: PromptMeasure | undefined
  if (state.prompt && dialect.kind === 'model' && !forwarded && !state.reply) {
    let measured
    try {
      // A short prompt is measured at once: no await, which costs a stream a turn of the microtask queue.
      measured = measurePrompt(state.prompt, dialect, json, request, requestId)
      if (measured instanceof Promise) measured = await measured
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error
      const { message, param, detail } = error
      record.status = error.status
      record.error = { type: detail.type ?? INVALID_REQUEST, code: detail.code ?? null, param: param ?? null, message }
      // OpenAI-shaped answers carry the provider's `code` (`invalid_value` for a token limit).
      if (dialect.errorAnswer || error.status !== 400) return sendError(dialect, error.status, message, param)
      return send(400, rejectionBody(dialect.errorStyle, { message, param: param ?? null, code: detail.code ?? null }, requestId, detail.type))
    }
    if (!isMeasure(measured)) {
      record.status = measured.status
      record.error = measured.error
      return send(measured.status, measured.body, measured.headers)
    }
    measure = measured
    context.promptUsage = promptUsage(measure)
    const cache = cacheRecord(measure)
    if (cache) record.promptCache = cache
  }
  // Faults and misbehaviours wait for a request the fake answers itself.
  let fault = modelTraffic && !forwarded ? state.faults.take() : undefined
  const answersItself = modelTraffic && !forwarded && dialect.kind === 'model'
  let misbehaviour = answersItself ? takePending(state.pendingMisbehaviours)?.misbehaviour : undefined
  if (misbehaviour) record.fault = { kind: misbehaviour.kind, source: 'planned' }
  // Seeded chaos (SPEC §19): one branch when it is off.
  if (state.chaos && answersItself) {
    const chosen = chaosAnswer(state.chaos, record, fault !== undefined || misbehaviour !== undefined)
    if (chosen?.type === 'provider-error') return answerProviderError({ name: chosen.name })
    if (chosen?.type === 'transport') fault = chosen.fault
    if (chosen?.type === 'misbehave') misbehaviour = chosen.misbehaviour
  }
  // Rate limits by requests and tokens (SPEC §19), on the proxy's clock.
  if (state.rateWindow && answersItself) {
    const waitS = state.rateWindow.admit(request, record)
    if (waitS !== undefined) return answerProviderError({ name: 'rate_limit', retryAfterS: waitS })
  }
  if (fault?.kind === 'disconnect' && fault.afterChunks === 0) {
    // Cut before any answer exists: the brain is not asked, so a client's retry meets the turn
    // this request would have used.
    res.socket?.destroy()
    return
  }
  const answer = { res, head, fault, dialect }
  if (modelTraffic && state.reply && !misbehaviour) return answerWithReply(answer, state.reply, record)
  if (forwarded && state.recordMode) {
    // A forwarded answer carries the upstream's headers, not the fake's (none were set).
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
  const base = side ? sideBrain(side, state.brain(), request) : misbehaviour ? misbehavingBrain(misbehaviour, state.requests.length) : state.brain()
  const own = base.session?.(`${identity.agent ?? ''}/${identity.subagent ?? ''}`) ?? base
  // Side requests are answered from defaults at once: never paced, never misbehaving.
  const brain = state.pacing && !side ? pacedBrain(own, state.pacing, state.requests.length) : own
  const onBrainError = (error: unknown): void | Promise<void> => {
    if (isProxyError(error)) {
      withdraw()
      return refuse(error.code, { message: error.message, hint: error.hint })
    }
    if (isProviderError(error)) {
      return answerProviderError({ name: error.errorName, message: error.customMessage ? error.message : undefined, retryAfterS: error.retryAfterS })
    }
    if (error instanceof BadRequest) {
      // The request asked for what cannot be answered (a schema too big to fill): the 400 the
      // provider would give, recorded like any rejected request.
      record.status = error.status
      record.error = { type: 'invalid_request_error', code: null, param: error.param ?? null, message: error.message }
      return sendError(dialect, error.status, error.message, error.param)
    }
    // Recorded, so the conversation shows why this turn has no reply (render/conversation.ts);
    // answered with a 400 no client retries, naming the brain and turn (SPEC §17).
    Object.assign(record, brainFailure(error))
    sendError(dialect, BRAIN_FAILURE_STATUS, brainFailureMessage(base, error), undefined, BRAIN_FAILURE_HEADERS)
  }
  if (dialect.kind === 'direct') {
    const embed = (text: string, model: string, dimensions: number): Promise<number[]> =>
      brain.embed ? Promise.resolve(brain.embed(text, model)) : Promise.resolve(deterministicVector(text, dimensions))
    const direct = { ...context, headers: record.headers, path, embed }
    let body: unknown
    try {
      // Large generated answers go out in pieces, so writing them never blocks the event loop for
      // long; a brain's own vectors are checked whole first, so a bad one is still a clean 500.
      if (dialect.answerText && !brain.embed) return await writePieces(answer, dialect.answerText(request, direct))
      body = await dialect.answer(request, direct)
    } catch (error) {
      if (error instanceof BadRequest) {
        record.status = error.status
        record.error = { type: 'invalid_request_error', code: null, param: error.param ?? null, message: error.message }
        return sendError(dialect, error.status, error.message, error.param)
      }
      return onBrainError(error)
    }
    return writeJson(answer, 200, body)
  }
  const rename = dialect.toolCallIds ? toolCallIdRenamer(dialect.toolCallIds) : sameId
  const usage = measure ? (response: ModelResponse) => withPromptUsage(response, measure) : undefined
  if (request.stream) return answerStream(answer, dialect, brain, context, record, { rename, onBrainError, usage })
  let response
  try {
    response = asModelResponse(renameToolCalls(await brain.generate(request), rename))
  } catch (error) {
    return onBrainError(error)
  }
  if (usage) response = usage(response)
  record.response = response
  return writeJson(answer, 200, dialect.encodeJson(response, context))
}

/**
 * Answers with a provider error and records it. `timeout` answers nothing: the request waits
 * until the client gives up or `close()` cuts it (no timer is involved).
 */
async function sendProviderError(
  res: ServerResponse,
  record: FakeRequest,
  planned: { name: ProviderErrorName; message?: string; retryAfterS?: number },
  detail: { dialect: WireDialect; context: EncodeContext; head: AnswerHead; model: string | undefined; now: number },
): Promise<void> {
  if (planned.name === 'timeout') {
    record.error = { name: 'timeout', type: 'timeout', code: null, param: null, message: planned.message ?? 'no answer: the request timed out' }
    return closed(res)
  }
  // Each provider's own answer, from its folder's errors.ts (SPEC §21); OpenAI's where a dialect has none.
  const { dialect, context, head } = detail
  const answerFor = dialect.providerError ?? openaiProviderError
  const answer = answerFor(planned.name, { ...planned, dialect: dialect.id, requestId: head.requestId, model: detail.model, now: detail.now })
  record.status = answer.status
  record.error = answer.error
  if (answer.streamFrames && record.stream && dialect.kind === 'model') {
    // Reported inside a 200 stream, as the provider does (Gemini's blocked prompt).
    const output = openStream(res, head, dialect.framing?.(context) ?? 'sse', { onError: () => [] })
    for (const frame of answer.streamFrames) output.emit(frame)
    return output.end()
  }
  sendJson(res, head, answer.status, JSON.stringify(answer.body), answer.headers)
}

/** Where an answer goes, and the fault (if any) planned for it. */
interface AnswerTarget {
  res: ServerResponse
  head: AnswerHead
  fault: Fault | undefined
  dialect: WireDialect
}

/** The error answer of `dialect` for `status`: its own shape, else its {@link ErrorStyle}'s. */
function errorAnswer(dialect: WireDialect, status: number, message: string, param?: string): ErrorAnswer {
  return dialect.errorAnswer?.(status, message) ?? { body: inputErrorBody(dialect.errorStyle, status, message, param) }
}

async function answerStream(
  answer: AnswerTarget,
  dialect: ModelDialect,
  brain: LLM,
  context: EncodeContext,
  record: FakeRequest,
  handlers: { rename: (id: string) => string; onBrainError: (error: unknown) => void | Promise<void>; usage?: (response: ModelResponse) => ModelResponse },
): Promise<void> {
  const { res, head } = answer
  const framing = dialect.framing?.(context) ?? 'sse'
  const options = new AnswerStreamOptions(res, head, framing)
  // Pull the first event before answering, so an error at the start (a refusal from a
  // ScriptedLLM, say) is a proper HTTP status the clients read and retry, not a broken stream.
  // A brain that accepts the call before a wait (latency) has the headers sent at that point.
  let source: EventSource | undefined
  let failure: unknown
  try {
    source = await eventSource(brain.stream(context.request, options))
  } catch (error) {
    // Once the headers are out, the error can only travel in the stream.
    if (!res.headersSent) return handlers.onBrainError(error)
    failure = error
  }
  const output = openStream(res, head, framing, {
    fault: answer.fault,
    // A failure once the stream has started ends it with the frames the provider sends for one
    // (Responses: `error` then `response.failed`).
    onError: (error, framesSent) => streamErrorFrames(dialect, error, framesSent, context),
  })
  const endsWithFinish = source !== undefined && 'nextNow' in source
  const events = new BrainEvents(dialect.encodeStream(context, output.emit), { model: context.request.model, rename: handlers.rename, record, endsWithFinish, usage: handlers.usage })
  // The encoder's opening frames are out; the error follows them, as it would any event.
  if (!source) return output.fail(failure)
  await pump(source, events, output)
}

/**
 * What the brain's `stream()` is given for one answer. Its `signal` is an own, enumerable getter,
 * as on the object literal it replaces (a brain that spreads the options into the brain it wraps
 * passes the signal on), from a shared descriptor ({@link ownGetter}): with a literal, every
 * streamed answer's objects, socket writes to response, outlived it until a full GC (a stream's
 * GC time ×4).
 */
class AnswerStreamOptions implements StreamOptions {
  /**
   * Made only for a brain that reads it (one that waits): on Node 20 an AbortController costs a
   * stream as much as a dozen of its events. Only a connection lost before the answer ended is a
   * client leaving.
   */
  static readonly #signal = ownGetter(function (this: AnswerStreamOptions) {
    return this.#leavingSignal()
  })

  declare readonly signal: AbortSignal
  /** The headers go out when the brain accepts the call, before any latency wait, whatever the framing. */
  readonly onAccepted: (() => void) | undefined
  readonly #res: ServerResponse
  #leaving: AbortController | undefined

  constructor(res: ServerResponse, head: AnswerHead, framing: StreamFraming) {
    this.#res = res
    this.onAccepted = framing === 'sse' ? () => startSse(res, head) : () => startFramed(res, head, framing)
    Object.defineProperty(this, 'signal', AnswerStreamOptions.#signal)
  }

  #leavingSignal(): AbortSignal {
    if (!this.#leaving) {
      const res = this.#res
      const controller = (this.#leaving = new AbortController())
      if (res.destroyed && !res.writableEnded) controller.abort()
      else res.once('close', () => res.writableEnded || controller.abort())
    }
    return this.#leaving.signal
  }
}

/** A brain's stream with its first event read: the rest read at once, or one `await` each. */
type EventSource = { first: IteratorResult<StreamEvent>; stop(): unknown } & (
  | { nextNow(): IteratorResult<StreamEvent> }
  | { next(): Promise<IteratorResult<StreamEvent>> }
)

async function eventSource(stream: AsyncIterable<StreamEvent> & MaybeAtOnce): Promise<EventSource> {
  if (stream[eventsAtOnce]) {
    const events = await stream[eventsAtOnce]()
    return { first: events.next(), nextNow: () => events.next(), stop: () => events.return?.() }
  }
  const events = stream[Symbol.asyncIterator]()
  return { first: await events.next(), next: () => events.next(), stop: () => events.return?.() }
}

/**
 * Feeds the brain's events to the encoder until the stream is over, the client left or a planned
 * fault cut it, waiting for room in the socket as it goes; then ends the answer. Events a brain
 * has at once pass without an `await` each. Stopping early stops the brain too.
 */
async function pump(source: EventSource, events: BrainEvents, output: StreamOutput): Promise<void> {
  try {
    for (let step = source.first; ; ) {
      if (step.done) {
        events.end()
        break
      }
      if (!events.pass(step.value) || output.stopped()) break
      const room = output.room()
      if (room) {
        await room
        if (output.stopped()) break
      }
      step = 'nextNow' in source ? source.nextNow() : await source.next()
    }
  } catch (error) {
    await source.stop()
    return output.fail(error)
  }
  await source.stop()
  return output.end()
}

function streamErrorFrames(dialect: ModelDialect, error: unknown, framesSent: number, context: EncodeContext): SseFrame[] {
  // A provider error thrown mid-stream keeps its name, so wires that name stream errors (Bedrock) send its own.
  const name = isProviderError(error) && error.errorName !== 'timeout' ? error.errorName : undefined
  const frames = dialect.streamError(`${LLM_ERROR_PREFIX} stream failed: ${messageOf(error)}`, framesSent, context, name)
  return Array.isArray(frames) ? frames : [frames]
}

async function answerWithReply(answer: AnswerTarget, plan: ReplyPlan, record: FakeRequest): Promise<void> {
  let body = plan.body
  if (typeof body === 'function') {
    try {
      body = (body as (req: FakeRequest) => unknown)(structuredClone(record))
    } catch (error) {
      const failure = errorAnswer(answer.dialect, 500, `[agent-doubles] FakeProxy reply() function threw: ${messageOf(error)}`)
      return writeJson(answer, 500, withRequestId(failure.body, answer.head.requestId), { ...failure.headers, ...DOUBLE_FAULT })
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
    const failure = errorAnswer(answer.dialect, 500, `[agent-doubles] FakeProxy reply() body cannot be sent as JSON: ${why}`)
    return writeJson(answer, 500, withRequestId(failure.body, answer.head.requestId), { ...failure.headers, ...DOUBLE_FAULT })
  }
  return writeText(answer, plan.status, text)
}

function writeJson(answer: AnswerTarget, status: number, body: unknown, headers?: Record<string, string>): Promise<void> {
  return writeText(answer, status, JSON.stringify(body), headers)
}

async function writeText(answer: AnswerTarget, status: number, text: string, headers: Record<string, string> = {}): Promise<void> {
  const { fault } = answer
  if (fault) return writeBrokenJson(answer.res, status, answerHeaders(answer.head, jsonHeaders(answer.head.requestId, headers)), text, fault)
  sendJson(answer.res, answer.head, status, text, headers)
}

/** A 200 JSON answer written piece by piece, with back-pressure; a planned fault gets the whole text. */
async function writePieces(answer: AnswerTarget, pieces: AsyncIterable<string>): Promise<void> {
  const { res } = answer
  if (answer.fault) {
    let text = ''
    for await (const piece of pieces) text += piece
    return writeText(answer, 200, text)
  }
  res.writeHead(200, answerHeaders(answer.head, jsonHeaders(answer.head.requestId)))
  for await (const piece of pieces) {
    if (res.destroyed) return
    if (!res.write(piece)) await drainedOrClosed(res)
  }
  if (!res.destroyed) res.end()
}

/** A JSON answer's own headers: `headers`, then its type and request id (which win). */
function jsonHeaders(requestId: string, headers?: Record<string, string>): Record<string, string> {
  return { ...headers, 'content-type': 'application/json', 'x-request-id': requestId, 'request-id': requestId }
}

function sendJson(res: ServerResponse, head: AnswerHead, status: number, text: string, headers?: Record<string, string>): void {
  if (res.destroyed || res.headersSent) return
  const body = utf8Body(text)
  const own = jsonHeaders(head.requestId, headers)
  own['content-length'] = String(body.byteLength)
  res.writeHead(status, answerHeaders(head, own))
  res.end(body)
}

async function serveAgentApi(
  req: IncomingMessage,
  state: ProxyState,
  { method, path, send }: { method: string; path: string; send: (status: number, body: unknown, headers?: Record<string, string>) => void },
): Promise<void> {
  const parsed = await readJson(req, method !== 'GET' && method !== 'HEAD', state.maxBodyValues)
  if (parsed.kind === 'aborted') return
  if (parsed.kind === 'error') return send(parsed.status, inputErrorBody('local', parsed.status, parsed.message))
  const answer = await handleAgentApi({ method, path, json: parsed.json }, { book: state.book, features: [...state.features] })
  if (!answer) return send(404, inputErrorBody('local', 404, `no route for ${method} ${path}`))
  send(answer.status, answer.body, answer.headers)
}

type ParsedBody =
  | { kind: 'ok'; body: Uint8Array; json: Record<string, unknown> | null }
  | { kind: 'error'; status: number; message: string; tooMany?: Uint8Array }
  | { kind: 'aborted' }

/**
 * Reads the body and parses it as a JSON object (when `expectJson`); bad input becomes 413/415/400.
 * A body of more than `maxValues` JSON values is refused before it is parsed (its bytes in `tooMany`).
 */
async function readJson(req: IncomingMessage, expectJson: boolean, maxValues: number, anyContentType = false): Promise<ParsedBody> {
  const read = await readBody(req)
  if (read.kind === 'aborted') return read
  if (read.kind === 'too-large') return { kind: 'error', status: 413, message: 'request body is larger than the 32 MiB limit' }
  const { body } = read
  if (!expectJson || body.length === 0) {
    return expectJson ? { kind: 'error', status: 400, message: 'request body is empty; send a JSON object' } : { kind: 'ok', body, json: null }
  }
  const type = req.headers['content-type']
  // What every SDK sends is settled without running the pattern.
  if (type !== undefined && !anyContentType && type !== 'application/json' && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return { kind: 'error', status: 415, message: `content-type must be application/json, got ${JSON.stringify(type)}` }
  }
  // A large body is checked and parsed in slices of the event loop (large-body.ts).
  let json: unknown
  if (body.byteLength >= LARGE_BODY) {
    const large = await parseLargeBody(body, maxValues)
    if (large.kind === 'error') return { kind: 'error', status: 400, message: large.message, tooMany: large.tooMany && body }
    json = large.json
  } else {
    if (nestsDeeperThan(body)) return { kind: 'error', status: 400, message: bodyErrors.deep }
    // Counted only when the bound is set so low that a body this small could be over it.
    const values = valuesOver(body, maxValues)
    if (values !== undefined) return { kind: 'error', status: 400, message: tooManyValuesMessage(values, maxValues), tooMany: body }
    let text: string
    try {
      text = strictUtf8.decode(body)
    } catch {
      return { kind: 'error', status: 400, message: bodyErrors.utf8 }
    }
    try {
      json = JSON.parse(text)
    } catch (error) {
      return { kind: 'error', status: 400, message: bodyErrors.json(messageOf(error)) }
    }
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { kind: 'error', status: 400, message: bodyErrors.notObject }
  }
  return { kind: 'ok', body, json: json as Record<string, unknown> }
}

/** Refuses bytes that are not UTF-8 instead of quietly replacing them, as the providers do. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** The next pending refusal or provider error, consuming one of its times. */
function takePending<T extends { remaining: number }>(pending: T[]): T | undefined {
  const next = pending[0]
  if (!next) return undefined
  if (--next.remaining <= 0) pending.shift()
  return next
}

/** Where the request was sent; its query is parsed only if a dialect reads it (few routes have one). */
class LazyTarget implements RequestTarget {
  #query: URLSearchParams | undefined
  constructor(
    readonly path: string,
    readonly url: string | undefined,
  ) {}

  get query(): URLSearchParams {
    return (this.#query ??= queryOf(this.url))
  }
}

function queryOf(url: string | undefined): URLSearchParams {
  const raw = url ?? '/'
  const query = raw.indexOf('?')
  return new URLSearchParams(query === -1 ? '' : raw.slice(query + 1))
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/'
  const query = raw.indexOf('?')
  return query === -1 ? raw : raw.slice(0, query)
}

function messageOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

/** A tool-call id kept as it is, for dialects without an id format: one function for all requests. */
function sameId(callId: string): string {
  return callId
}
