/**
 * Record mode (SPEC §5.8): model requests go to the real upstream with the caller's own
 * headers, the answer comes back unchanged, and each whole turn is appended to a transcript
 * that `ScriptedLLM.fromTranscript` replays. The pipeline hands a request here after its
 * checks, in place of asking the brain.
 * @module
 */
import type { ServerResponse } from 'node:http'
import { utf8Length } from '../internal/bytes.js'
import { PREFIX, argumentError, describeValue, is } from '../internal/describe.js'
import type { ModelRequest, ModelResponse } from '../llm/types.js'
import type { RefusalCode } from '../gateway/refusal-codes.js'
import { refusalAnswer } from '../gateway/refusal-answer.js'
import { withRequestId } from '../wire/anthropic-messages/errors.js'
import type { Dialect } from '../server/types.js'
import { decodeUpstreamResponse } from './decode-response.js'
import { UpstreamBrokeOff, UpstreamUnreachable, forwardToUpstream } from './forward.js'
import { isOriginUrl } from './origin-llm.js'
import { TranscriptSink, type TranscriptStream } from './transcript-sink.js'

/** The real upstreams, by provider: origins such as `https://api.openai.com`. */
export interface UpstreamOrigins {
  /** Serves OpenAI Chat, Responses, embeddings and the model list. */
  openai?: string
  /** Serves Anthropic Messages. */
  anthropic?: string
}

/** Options of {@link RecordMode}: both are required together. */
export interface RecordModeOptions {
  upstream: UpstreamOrigins
  /** The transcript: a file path (appended to; folders created) or a writable stream (the caller closes it). */
  record: string | TranscriptStream
}

/** One model request, as the pipeline read it. */
export interface RecordInput {
  dialect: Dialect
  method: string
  /** The path as received; a query string is passed on too. */
  path: string
  /** The caller's headers, names lower-cased (auth included: it goes upstream, never to the file). */
  headers: Record<string, string>
  body: Uint8Array
  /** The request in the neutral model; `undefined` for traffic that is not a model turn. */
  request: ModelRequest | undefined
}

/** What serving one request gave. */
export interface RecordOutcome {
  /** The turn's neutral answer, when a whole one was recorded. */
  response?: ModelResponse
  /** Set when the proxy refused instead (the upstream could not be reached); the answer is written. */
  refusal?: { code: RefusalCode; status: number; message: string }
}

const UPSTREAM_KEYS = ['openai', 'anthropic'] as const
const UPSTREAM_SHAPE = '{ openai?: origin, anthropic?: origin }'

/** Which upstream serves each dialect; the brain answers dialects without one (record mode records OpenAI and Anthropic). */
const PROVIDER_OF: Readonly<Partial<Record<Dialect, keyof UpstreamOrigins>>> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'openai-embeddings': 'openai',
  'openai-models': 'openai',
  'anthropic-messages': 'anthropic',
}

function isTranscriptTarget(value: unknown): boolean {
  return (typeof value === 'string' && value !== '') || (is.object(value) && typeof (value as { write?: unknown }).write === 'function')
}

/**
 * Checks the record-mode options of `owner` (e.g. `FakeProxy`): both or neither, `upstream`
 * naming only `openai` and `anthropic`, each an http(s) URL, `record` a path or a stream.
 * @throws {TypeError} naming `owner`, the option and what was expected.
 */
export function validateRecordOptions(owner: string, upstream: unknown, record: unknown): void {
  if (upstream === undefined && record === undefined) return
  if (upstream === undefined) {
    throw new TypeError(`${PREFIX} ${owner}: option record needs option upstream ${UPSTREAM_SHAPE} to forward to; got record ${describeValue(record)} alone`)
  }
  if (record === undefined) {
    throw new TypeError(`${PREFIX} ${owner}: option upstream needs option record (a transcript file path or a writable stream); a FakeProxy forwards only to record`)
  }
  if (!is.object(upstream)) throw argumentError(owner, 'option upstream', UPSTREAM_SHAPE, upstream)
  const origins = upstream as Record<string, unknown>
  for (const key of Object.keys(origins)) {
    if (!(UPSTREAM_KEYS as readonly string[]).includes(key)) {
      throw new TypeError(`${PREFIX} ${owner}: unknown upstream ${JSON.stringify(key)}; expected one of ${UPSTREAM_KEYS.join(', ')}`)
    }
    if (origins[key] !== undefined && !isOriginUrl(origins[key])) {
      throw argumentError(owner, `option upstream.${key}`, 'an http(s) URL without query or fragment, such as "https://api.openai.com"', origins[key])
    }
  }
  if (UPSTREAM_KEYS.every((key) => origins[key] === undefined)) throw argumentError(owner, 'option upstream', `${UPSTREAM_SHAPE} naming at least one`, upstream)
  if (!isTranscriptTarget(record)) throw argumentError(owner, 'option record', 'a transcript file path or a writable stream', record)
}

/**
 * Forwards model requests to real upstreams and records each whole turn.
 * @example
 * const recording = new RecordMode({ upstream: { openai: 'https://api.openai.com' }, record: 'test/transcripts/run.jsonl' })
 * @throws {TypeError} the options are malformed (see {@link validateRecordOptions}).
 */
export class RecordMode {
  readonly #origins: UpstreamOrigins
  readonly #sink: TranscriptSink
  readonly #target: string
  readonly #failures: unknown[] = []

  constructor(options: RecordModeOptions) {
    const { upstream, record } = (options ?? {}) as Partial<RecordModeOptions>
    if (upstream === undefined && record === undefined) throw argumentError('FakeProxy', 'record mode options', `{ upstream: ${UPSTREAM_SHAPE}, record }`, options)
    validateRecordOptions('FakeProxy', upstream, record)
    this.#origins = { ...upstream }
    this.#sink = new TranscriptSink(record as string | TranscriptStream)
    this.#target = typeof record === 'string' ? JSON.stringify(record) : 'the record stream'
  }

  /** The origin that serves `dialect`, or `undefined` when none was given (the brain answers). */
  originFor(dialect: Dialect): string | undefined {
    const provider = PROVIDER_OF[dialect]
    return provider && this.#origins[provider]
  }

  /**
   * Forwards one request to its upstream and streams the answer back to `res` unchanged. A
   * successful model turn is decoded and appended to the transcript before the caller's answer
   * ends; an error status, embeddings, the model list and broken streams record nothing. An
   * unreachable upstream is answered with the `upstream_unreachable` refusal in the caller's
   * dialect.
   * @throws {Error} no upstream serves `input.dialect` (ask {@link originFor} first).
   */
  async serve(input: RecordInput, res: ServerResponse): Promise<RecordOutcome> {
    const origin = this.originFor(input.dialect)
    if (!origin) throw new Error(`${PREFIX} FakeProxy: record mode has no upstream for ${input.dialect}; check originFor() before serve()`)
    const outcome: RecordOutcome = {}
    const { request } = input
    try {
      await forwardToUpstream({ origin, method: input.method, path: input.path, headers: input.headers, body: input.body }, res, {
        beforeEnd: async (result) => {
          if (!request || result.status < 200 || result.status > 299) return
          const decoded = decodeUpstreamResponse(input.dialect, result.contentType, result.body)
          if (!decoded) return
          outcome.response = neutralAnswer(input.dialect, request, decoded)
          await this.#sink.append(request, outcome.response)
        },
        onError: (error) => this.#failures.push(error),
      })
    } catch (error) {
      if (error instanceof UpstreamBrokeOff) return outcome
      if (!(error instanceof UpstreamUnreachable)) throw error
      const style = input.dialect === 'anthropic-messages' ? 'anthropic' : 'openai'
      const answer = refusalAnswer('upstream_unreachable', style, { message: error.message, hint: 'check the upstream origin given to FakeProxy({ upstream }), and that it is up' })
      if (!res.headersSent && !res.destroyed) {
        const text = JSON.stringify(style === 'anthropic' ? withRequestId(answer.body) : answer.body)
        res.writeHead(answer.status, { ...answer.headers, 'content-length': String(utf8Length(text)) })
        res.end(text)
      }
      outcome.refusal = { code: 'upstream_unreachable', status: answer.status, message: error.message }
    }
    return outcome
  }

  /**
   * Resolves once every transcript line so far is written (record mode stays usable).
   * @throws {Error} some lines could not be written since the last `close()`.
   */
  async close(): Promise<void> {
    await this.#sink.close()
    const failures = this.#failures.splice(0)
    if (failures.length === 0) return
    const first = failures[0] instanceof Error ? failures[0].message : String(failures[0])
    throw new Error(`${PREFIX} FakeProxy: ${failures.length} transcript line(s) could not be written to ${this.#target}: ${first}`, { cause: failures[0] })
  }
}

/**
 * The answer as a transcript should keep it, so it replays through any dialect. The AI SDK asks
 * Anthropic for structured output through a forced `json` tool; the dialect's decoder already
 * reads such a request as `responseFormat` with no tools, so its `json` tool call is stored as
 * the JSON text it stands for (the Anthropic encoder turns it back into the tool call).
 */
function neutralAnswer(dialect: Dialect, request: ModelRequest, response: ModelResponse): ModelResponse {
  const [only] = response.content
  const forcedJson = dialect === 'anthropic-messages' && request.responseFormat && !request.tools && response.content.length === 1
  if (!forcedJson || only?.type !== 'tool-call' || only.name !== 'json') return response
  return { ...response, content: [{ type: 'text', text: JSON.stringify(only.args) }], finishReason: 'stop' }
}
