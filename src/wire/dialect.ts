/**
 * The one small interface every wire dialect implements, and the helpers they share. A dialect
 * turns its provider's request JSON into the neutral {@link ModelRequest} and turns neutral
 * answers back into that provider's JSON and SSE, so one brain serves every client.
 * @module
 */
import type { Message, ModelRequest, ModelResponse, Part, StreamEvent, ToolDefinition, Usage } from '../llm/types.js'
import type { ErrorStyle, ProxyFeature } from './names.js'
import type { AnsweredProviderError, ProviderErrorAnswer, ProviderErrorDetail } from './provider-error.js'
import type { PromptTerms } from './prompt-layout.js'
import type { ResponseMemory } from './response-memory.js'
import type { Violation } from './violation.js'
import type { WireIdKind } from './wire-ids.js'

/**
 * One server-sent event: an optional `event:` name and one line of `data:`. A hot encoder may
 * give the data in three pieces, `before + data + after`, where the outer two are the same for
 * every delta of a stream: written as they are, they spare each delta building its line as one
 * string. Read the whole line with {@link frameData}.
 */
export interface SseFrame {
  event?: string
  data: string
  /** Text the data line starts with, before `data`. */
  before?: string
  /** Text the data line ends with, after `data`. */
  after?: string
}

/** A frame's whole `data:` line. */
export function frameData(frame: SseFrame): string {
  return frame.before === undefined && frame.after === undefined ? frame.data : `${frame.before ?? ''}${frame.data}${frame.after ?? ''}`
}

/**
 * Takes each frame of a streamed answer as its encoder makes it. The frame is read during the
 * call and not kept, so an encoder may fill the same object again for its next frame.
 */
export type EmitFrame = (frame: SseFrame) => void

/** Takes the events of a stream in order and emits their frames (see {@link ModelDialect.encodeStream}). */
export type StreamEncoder = (event: StreamEvent) => void

/**
 * Where a request was sent. Routes that carry parameters in the path or query (Gemini's model
 * and `alt=sse`, Azure's deployment, Bedrock's model id) are read from here.
 */
export interface RequestTarget {
  /** The request path, without the query. */
  path: string
  query: URLSearchParams
}

/**
 * How a dialect's streamed answers are framed on the wire: server-sent events, one JSON value a
 * line (Ollama), one JSON array written element by element (Gemini without `alt=sse`), or AWS
 * event-stream binary messages (Bedrock). Each frame's `data` is one JSON value; `event` names
 * the event where the framing carries names (SSE `event:`, event-stream `:event-type`).
 */
export type StreamFraming = 'sse' | 'ndjson' | 'json-array' | 'eventstream'

/** An error answer in a provider's own shape. */
export interface ErrorAnswer {
  body: unknown
  headers?: Record<string, string>
}

/** What an encoder knows about the request it answers. */
export interface EncodeContext {
  /** Where the request was sent (absent when an answer is encoded away from HTTP). */
  target?: RequestTarget
  /** The request in the neutral model. */
  request: ModelRequest
  /** The request body as the client sent it (dialects read wire-only options from it). */
  json: Record<string, unknown>
  /** A per-proxy unique seed for the ids this answer carries (see `wireId`). */
  id: string
  /** Seconds since the epoch, for `created` fields. */
  created: number
  /** The proxy's remembered Responses, where answers are noted for later requests to point at. */
  memory?: ResponseMemory
  /**
   * The prompt's usage as the proxy measured it before answering (input and cache counts, no
   * output yet), for the frames that report usage before the answer's end (Anthropic's
   * `message_start`). Absent when the proxy does not count.
   */
  promptUsage?: Usage
}

/** Bad input the dialect found while decoding: answered with 400 in the dialect's error shape. */
export class BadRequest extends Error {
  constructor(
    message: string,
    /** The request field at fault, when there is one. */
    readonly param?: string,
    /**
     * The provider's `code` and `type` for it, when it has its own (embeddings limits), and the
     * status where the provider answers bad input with another than 400 (Azure's 404 for a
     * missing `api-version`).
     */
    readonly detail: { code?: string; type?: string; status?: number } = {},
  ) {
    super(message)
    this.name = 'BadRequest'
  }

  /** The status to answer with: 400 unless the provider answers this bad input otherwise. */
  get status(): number {
    return this.detail.status ?? 400
  }
}

/** The parts every dialect has. */
interface DialectBase {
  /**
   * The dialect's name, one of its provider's {@link WireProvider.dialectNames}: the package's
   * `Dialect` union is made of those declarations (src/wire/dialects.ts), so the contract, below
   * the list, names it as a string.
   */
  readonly id: string
  /** The shape of refusals and bad-input errors on this route. */
  readonly errorStyle: Exclude<ErrorStyle, 'local'>
  /** Features the proxy must report for a request on this route (SPEC §5.3 check 5). */
  readonly needs: readonly ProxyFeature[]
  /**
   * The request as the neutral model; throws {@link BadRequest} on a body the provider would
   * refuse. `target` is where it was sent (path parameters, query); `memory` resolves ids of
   * earlier answers (Responses' `previous_response_id`).
   */
  decode(json: Record<string, unknown>, target?: RequestTarget, memory?: ResponseMemory): ModelRequest
  /**
   * The body as the provider reads it, before validation and decoding: Azure puts the
   * deployment in `model` and requires `api-version`. Throws {@link BadRequest}.
   */
  prepare?(json: Record<string, unknown>, target: RequestTarget): Record<string, unknown>
  /**
   * The provider's own error body (and headers) for `status`, for providers whose errors are
   * shaped like neither OpenAI's nor Anthropic's; `code` is the proxy's refusal code, if any.
   * Without it, or when it answers `undefined`, {@link errorStyle} decides.
   */
  errorAnswer?(status: number, message: string, code?: string): ErrorAnswer | undefined
  /**
   * The provider's own answer for provider error `name` (SPEC §10.2): status, body and headers as
   * the real API sends them, from the dialect's `errors.ts`. OpenAI's when absent.
   */
  providerError?(name: AnsweredProviderError, detail: ProviderErrorDetail): ProviderErrorAnswer
  /**
   * The first rule of the real API that `json` breaks (SPEC §10.3), or `undefined`; no checks
   * beyond decoding when absent. `memory` resolves ids of earlier answers; `headers` are the
   * request's, lower-cased (Anthropic's betas).
   */
  validate?(json: Record<string, unknown>, memory: ResponseMemory, headers: Readonly<Record<string, string | string[] | undefined>>): Violation | undefined
  /** How its prompt is laid out for counting and the prompt cache; the neutral layout, uncached, when absent. */
  readonly prompt?: PromptTerms
  /**
   * The provider's words for a prompt over the model's context window, the message of its
   * `context_length_exceeded` (SPEC §20); the generic message of its `errors.ts` when absent.
   */
  contextTooLongMessage?(tokens: number, window: number): string
  /**
   * The provider's own 400 for a token limit (`max_tokens` or the dialect's equivalent, as
   * `json` names it) over the model's maximum output `max` (SPEC §20's model table). Without
   * it the limit is not checked (Ollama caps `num_predict` rather than refusing it).
   */
  outputLimitError?(json: Record<string, unknown>, requested: number, max: number, model: string): BadRequest
  /**
   * `false` for routes that answer about models rather than call one (model lists, token
   * counts): planned refusals, replies and faults wait for the next real model request.
   */
  readonly modelTraffic?: false
  /** `true` where the provider reads the body as JSON whatever its content type (Ollama: `curl -d` sends a form type). */
  readonly anyContentType?: true
}

/** A dialect whose answers come from the proxy's brain (an `LLM`). */
export interface ModelDialect extends DialectBase {
  readonly kind: 'model'
  /** The format of tool-call ids this wire carries, for ids a double generated (kept as they are when absent). */
  readonly toolCallIds?: WireIdKind
  encodeJson(response: ModelResponse, context: EncodeContext): unknown
  /**
   * Starts a streamed answer: its opening frames go to `emit` at once; the encoder it returns
   * takes the events one by one — always ending with one `finish` (brain-events.ts sees to it) —
   * and emits their frames. Pushed rather than pulled through async generators, so a brain whose
   * events are all known goes to the wire without an `await` per event.
   */
  encodeStream(context: EncodeContext, emit: EmitFrame): StreamEncoder
  /**
   * The frame (or frames) that report an error after a stream has started, from frame number
   * `framesSent` on (Responses numbers its events), as the provider sends them. `name` is the
   * provider error (SPEC §10.2) the brain threw, for wires whose stream names its errors
   * (Bedrock's event-stream exceptions); absent for any other failure.
   */
  streamError(message: string, framesSent: number, context: EncodeContext, name?: AnsweredProviderError): SseFrame[]
  /** How streamed answers to this request are framed; SSE when absent. */
  framing?(context: EncodeContext): StreamFraming
}

/** What a self-answering dialect knows beyond {@link EncodeContext}. */
export interface DirectContext extends EncodeContext {
  /** The request headers, lower-cased. */
  headers: Record<string, string>
  /** The request path, without the query. */
  path: string
  /**
   * The vector for `text`: the brain's own `embed` when it has one (a ScriptedLLM's `embed`
   * option), else the deterministic vector of `dimensions` components.
   */
  embed(text: string, model: string, dimensions: number): Promise<number[]>
}

/** A dialect that answers by itself (embeddings, the model list). */
export interface DirectDialect extends DialectBase {
  readonly kind: 'direct'
  answer(request: ModelRequest, context: DirectContext): unknown
  /**
   * The same answer as JSON text in pieces, made a slice at a time with the event loop free in
   * between, for answers too large to build in one go (SPEC §11: no request blocks the loop
   * for more than 250 ms). When present, the proxy writes this instead of {@link answer}.
   */
  answerText?(request: ModelRequest, context: DirectContext): AsyncIterable<string>
}

/** A wire dialect served by the proxy. */
export type WireDialect = ModelDialect | DirectDialect

/** One route: the method it answers and its dialect. */
export interface Route {
  readonly method: 'GET' | 'POST'
  readonly dialect: WireDialect
}

/** A route whose path carries parameters (a model, a deployment): the pattern and the route for a match. */
export interface RoutePattern {
  readonly path: RegExp
  /** The route for a match, or `undefined` for a method the provider has but the fake does not serve. */
  readonly route: (match: RegExpExecArray) => Route | undefined
  /**
   * One concrete path for each kind of route the pattern serves, so tests that go over every
   * route (the fuzz pass, SPEC §24) reach it without being told.
   */
  readonly examples?: readonly string[]
}

/**
 * One API host of a provider, for the network guard and `routeProvidersTo` (SPEC §8, §9). `*`
 * stands for part of one DNS label (an Azure resource name, an AWS or Google Cloud region).
 * `openAiBase`: an OpenAI-compatible vendor's base paths, tried in order; the matching one is
 * replaced by the fake's `/v1`. Hosts without it keep their path (the fake serves their layout).
 */
export interface ProviderHost {
  readonly host: string
  readonly openAiBase?: readonly string[]
}

/**
 * Everything a provider needs outside its own folder, declared by the folder itself (SPEC §21):
 * the list of dialects (dialects.ts) holds one entry per provider, and the route table, the
 * network guard's hosts, `fakeProxy.env` and the unknown-path error shapes are derived from
 * the list. Adding a provider is its folder and that one line.
 */
export interface WireProvider<Names extends readonly string[] = readonly string[]> {
  /** The provider's name, for messages and the layout test. */
  readonly name: string
  /**
   * Every dialect name its wire serves, declared `as const` through {@link defineProvider}: the
   * ids of {@link dialects} and of its WebSocket transports (`openai-realtime`, `gemini-live`).
   * The package's `Dialect` union is the union of every listed provider's names; a provider
   * serving only other providers' dialects on its own paths (Azure, Vertex) declares none.
   */
  readonly dialectNames: Names
  /** Every dialect it serves (the ones its routes and patterns can give). */
  readonly dialects: readonly WireDialect[]
  /** Routes at fixed paths. */
  readonly routes?: Readonly<Record<string, Route>>
  /** Routes whose paths carry parameters, tried in the list's order after the fixed ones. */
  readonly patterns?: readonly RoutePattern[]
  /**
   * The dialect whose error shape answers a path no route serves but that lies under this
   * provider's paths (Gemini's `/v1beta/`, Ollama's `/api/`), or `undefined`.
   */
  unknownPath?(path: string): WireDialect | undefined
  /** The provider's API hosts: a request to any of them is a real model call. */
  readonly hosts: readonly ProviderHost[]
  /**
   * The environment variables that point its clients at the fake at `url` (SPEC §17), with
   * {@link PLACEHOLDER_KEY} for keys.
   */
  env?(url: string): Record<string, string>
}

/**
 * A provider as its folder declares it, with its {@link WireProvider.dialectNames} kept as the
 * literal names they are (the `const` type parameter), so the list of dialects can make the
 * `Dialect` union of them. Returns `provider` itself.
 * @example
 * // src/wire/toy/provider.ts, listed by one line of src/wire/providers.ts:
 * export const toyProvider = defineProvider({ name: 'Toy', dialectNames: ['toy-chat'], dialects: [toyChat], routes: { '/toy/chat': { method: 'POST', dialect: toyChat } }, hosts: [{ host: 'api.toy.example' }] })
 */
export function defineProvider<const Names extends readonly string[]>(provider: WireProvider<Names>): WireProvider<Names> {
  return provider
}

/**
 * A key no provider issues: clients that refuse to start without one get it, and a request
 * that somehow left the machine would be refused by the real API.
 */
export const PLACEHOLDER_KEY = 'agent-doubles-placeholder-key'

/** The error body OpenAI routes answer with. */
export function openaiErrorBody(message: string, type: string, param: string | null = null, code: string | null = null): unknown {
  return { error: { message, type, param, code } }
}

/** The error body Anthropic routes answer with. */
export function anthropicErrorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } }
}

/** A bad-input error body in `style`, typed from the HTTP status. */
export function inputErrorBody(style: ErrorStyle, status: number, message: string, param?: string): unknown {
  if (style === 'anthropic') return anthropicErrorBody(anthropicErrorType(status), message)
  if (style === 'local') return { error: { code: status >= 500 ? 'internal_error' : 'invalid_request', message } }
  return openaiErrorBody(message, status >= 500 ? 'server_error' : status === 404 ? 'not_found_error' : 'invalid_request_error', param ?? null)
}

function anthropicErrorType(status: number): string {
  if (status === 404) return 'not_found_error'
  if (status === 413) return 'request_too_large'
  if (status >= 500) return 'api_error'
  return 'invalid_request_error'
}

/**
 * Splits a tool call's JSON arguments into at least two fragments, as real providers stream
 * them (clients must join deltas; a fake that sends one piece hides bugs in that code).
 */
export function splitArguments(json: string): string[] {
  if (json.length < 2) return [json, '']
  const middle = Math.ceil(json.length / 2)
  return [json.slice(0, middle), json.slice(middle)]
}

/** A tool call's args as the JSON text the wire carries. */
export function argumentsJson(args: unknown): string {
  return JSON.stringify(args ?? {}) ?? '{}'
}

/**
 * A tool call's arguments as text: exactly what the model wrote when it gave text of its own
 * (`argsText`, a misbehaving model's non-JSON or cut-short arguments, SPEC §19), else the JSON
 * of `args`. Wires that carry arguments as text send this.
 */
export function callArgumentsText(call: { args: unknown; argsText?: string }): string {
  return call.argsText ?? argumentsJson(call.args)
}

/** Whether a tool call's arguments, as the model wrote them, are not a JSON object (a wire of objects cannot carry them). */
export function hasBrokenArguments(call: { argsText?: string }): boolean {
  if (call.argsText === undefined) return false
  try {
    const parsed: unknown = JSON.parse(call.argsText)
    return parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)
  } catch {
    return true
  }
}

/** Parses tool-call arguments from the wire; text that is not JSON is kept as the string it is. */
export function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {}
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Reads an image given as a URL, turning `data:` URLs into inline data. */
export function imageFromUrl(url: string): Part {
  const match = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(url)
  if (!match) return { type: 'image', url }
  return { type: 'image', ...(match[1] ? { mediaType: match[1] } : {}), data: match[3] }
}

/**
 * Appends `part` to the last message when it has the same role, else starts a message. Used for
 * tool results and the Responses API's separate items, so a turn reads the same whichever
 * dialect carried it (Chat's separate `tool` messages and Anthropic's `tool_result` blocks
 * both become one `tool` message).
 */
export function appendPart(messages: Message[], role: Message['role'], part: Part): void {
  const last = messages.at(-1)
  if (last && last.role === role) last.content.push(part)
  else messages.push({ role, content: [part] })
}

/** The name of the tool call `id` refers to, looked up in the earlier messages. */
export function toolNameFor(messages: readonly Message[], id: string): string | undefined {
  // Indexed once as the decoder goes, not searched per result: 50k results answering 50k calls
  // once took seconds (SPEC §24). The index picks up where it stopped, the last message's new
  // parts included, so a decoder appending as it goes still sees every call once.
  let index = toolNameIndexes.get(messages)
  if (!index) toolNameIndexes.set(messages, (index = { names: new Map(), message: 0, part: 0 }))
  for (; index.message < messages.length; index.message++, index.part = 0) {
    const content = messages[index.message].content
    for (; index.part < content.length; index.part++) {
      const part = content[index.part]
      if (part.type === 'tool-call' && !index.names.has(part.id)) index.names.set(part.id, part.name)
    }
    // Stay on the last message: a part appended to it later is still to be seen.
    if (index.message === messages.length - 1) break
  }
  return index.names.get(id)
}

/** Where {@link toolNameFor} stopped in a list of messages, and the names it saw. */
interface ToolNameIndex {
  names: Map<string, string>
  message: number
  part: number
}
const toolNameIndexes = new WeakMap<readonly Message[], ToolNameIndex>()

/** Text joined from text blocks (`[{ type: 'text', text }]`), or the string itself. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((block) => (block && typeof block === 'object' && typeof (block as { text?: unknown }).text === 'string' ? (block as { text: string }).text : ''))
    .join('')
}

/** Reads a string field, or throws {@link BadRequest} naming it. */
export function requireString(json: Record<string, unknown>, field: string): string {
  const value = json[field]
  if (typeof value !== 'string' || value === '') throw new BadRequest(`${field} must be a non-empty string`, field)
  return value
}

/**
 * A string field of the wire that may be absent: the string, `''` when absent or null, else
 * {@link BadRequest} naming `param` (`String()` of a JSON object such as `{"toString":1}`
 * would throw a TypeError, a crash instead of the client's 400).
 */
export function optionalString(value: unknown, param: string): string {
  if (typeof value === 'string') return value
  if (value === undefined || value === null) return ''
  throw new BadRequest(`${param} must be a string, got ${Array.isArray(value) ? 'an array' : typeof value}`, param)
}

/** Reads an array field, or throws {@link BadRequest} naming it. */
export function requireArray(json: Record<string, unknown>, field: string): unknown[] {
  const value = json[field]
  if (!Array.isArray(value)) throw new BadRequest(`${field} must be an array`, field)
  return value
}

/**
 * The neutral tools of a wire request: each wire tool is turned into `{ name, description,
 * schema }` by `fields` (the dialects name them differently); tools without a name are skipped.
 */
export function decodeToolList(
  tools: unknown,
  fields: (tool: Record<string, unknown>) => { name: unknown; description: unknown; schema: unknown } | undefined,
): ToolDefinition[] {
  if (!Array.isArray(tools)) return []
  return tools.flatMap((raw) => {
    const tool = fields(record(raw))
    if (!tool || typeof tool.name !== 'string') return []
    return [{
      name: tool.name,
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      parameters: tool.schema ?? { type: 'object', properties: {} },
    }]
  })
}

/** A plain-object view of `value` (empty for anything else), for reading optional fields. */
export function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

/** A finite number, or `undefined`. */
export function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** The `finish` event of a stream that stopped without one, built from what it carried. */
export function finishOf(said: Accumulated, model: string): StreamEvent {
  const content = said.content()
  const calls = content.some((part) => part.type === 'tool-call')
  return {
    type: 'finish',
    response: { content, finishReason: calls ? 'tool-calls' : 'stop', usage: { inputTokens: 0, outputTokens: 0 }, model },
  }
}

/**
 * The content a stream has carried so far. Deltas are joined a thousand at a time, so a long
 * stream costs about its text, not a string node per delta.
 */
export class Accumulated {
  readonly #content: Part[] = []
  #pending: string[] = []

  add(event: StreamEvent): void {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
      const type = event.type === 'text-delta' ? 'text' : event.type === 'refusal-delta' ? 'refusal' : 'reasoning'
      if (this.#content.at(-1)?.type !== type) {
        this.#flush()
        this.#content.push({ type, text: '' })
      }
      this.#pending.push(event.text)
      if (this.#pending.length >= 1024) this.#flush()
    } else if (event.type === 'tool-call') {
      this.#flush()
      this.#content.push({ type: 'tool-call', id: event.id, name: event.name, args: event.args, ...(event.argsText !== undefined ? { argsText: event.argsText } : {}) })
    }
  }

  content(): Part[] {
    this.#flush()
    return this.#content
  }

  #flush(): void {
    if (this.#pending.length === 0) return
    const last = this.#content.at(-1) as { text: string }
    last.text += this.#pending.join('')
    this.#pending = []
  }
}

/** Maps the neutral finish reason to the OpenAI Chat one. */
export function chatFinishReason(reason: ModelResponse['finishReason']): string {
  return chatFinishReasons[reason] ?? 'stop'
}

const chatFinishReasons: Readonly<Record<string, string>> = { stop: 'stop', 'tool-calls': 'tool_calls', length: 'length', 'content-filter': 'content_filter' }

/** How messages about the proxy's brain begin. */
export const LLM_ERROR_PREFIX = '[agent-doubles] FakeProxy: the LLM'

/** A brain's answer checked to be a ModelResponse, with missing counts filled. */
export function asModelResponse(value: unknown): ModelResponse {
  const response = value as ModelResponse
  if (!response || typeof response !== 'object' || !Array.isArray(response.content)) {
    throw new TypeError(`${LLM_ERROR_PREFIX} answered something that is not a ModelResponse: ${JSON.stringify(value) ?? String(value)}`)
  }
  const calls = hasToolCall(response.content)
  return {
    ...response,
    finishReason: response.finishReason ?? (calls ? 'tool-calls' : 'stop'),
    usage: response.usage ?? { inputTokens: 0, outputTokens: 0 },
  }
}

/**
 * Whether `content` has a tool call, as `content.some()` has it (holes skipped), without the
 * closure: every answer comes through {@link asModelResponse}.
 */
function hasToolCall(content: ModelResponse['content']): boolean {
  for (let i = 0; i < content.length; i++) if (i in content && content[i].type === 'tool-call') return true
  return false
}
