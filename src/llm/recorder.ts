/**
 * The recorder (SPEC §4.3): wraps an LLM or an AI SDK language model and appends one
 * transcript line per call, in the format `ScriptedLLM.fromTranscript` replays.
 * @module
 */
import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { LLM, ModelRequest, ModelResponse, Part, StreamEvent } from './types.js'
import { argumentError, checkOptions } from '../internal/describe.js'
import { requestSnapshot, serializeTurn } from './transcript.js'
import { TimingsTaker, type TurnTimings } from './timings.js'
import { fromAiContent, fromAiFinishReason, fromAiTokens, isAiLanguageModel, parseArgs, toModelRequest, type AiCallOptions } from './language-model.js'

/** Anything with a `write(chunk)` method: a `fs.WriteStream`, a `PassThrough`, `process.stdout`. */
export interface WritableLike {
  write(chunk: string): unknown
}

/** Options of {@link record}. */
export interface RecordOptions {
  /** Where transcript lines go: a file path (appended to; folders are created) or a writable stream (the caller closes it). */
  to: string | WritableLike
  /**
   * Keep each turn's timing on its line (`"timings": { "ttftMs", "chunkMs" }`, whole
   * milliseconds): the time to the first delta and the gap before each later one, which a
   * replay with `replaySpeed` paces by.
   * @default false
   */
  timings?: boolean
}

/** An AI SDK language model of any specification version, as far as the recorder needs it. */
export interface AnyAiLanguageModel {
  readonly specificationVersion: string
  readonly provider: string
  readonly modelId: string
  doGenerate(options: never): PromiseLike<unknown>
  doStream(options: never): PromiseLike<unknown>
}

type WriteLine = (line: string) => void

/** Starts timing one call, when the recorder keeps timings. */
type StartTiming = () => TimingsTaker | undefined

/**
 * Wraps `inner` so every call appends one `{"request", "response"}` line to `to`. The request
 * is snapshotted before the call; a stream is recorded whole once it ends, also when the caller
 * stops reading early; a failed call passes its error through and records nothing. Only the
 * neutral request is written, so headers and API keys never reach a transcript.
 * @example
 * const model = record(openai('gpt-4o'), { to: 'test/transcripts/weather.jsonl' })
 * @throws TypeError when `inner` is neither an LLM nor an AI SDK language model, or `to` is missing.
 */
export function record<M extends AnyAiLanguageModel>(inner: M, options: RecordOptions): M
export function record<L extends LLM>(inner: L, options: RecordOptions): LLM
export function record(inner: LLM | AnyAiLanguageModel, options: RecordOptions): LLM | AnyAiLanguageModel {
  const write = lineWriter(options)
  const timing: StartTiming = options.timings ? () => new TimingsTaker() : () => undefined
  if (isAiLanguageModel(inner)) return recordLanguageModel(inner as AnyAiLanguageModel, write, timing)
  if (isLLM(inner)) return recordLLM(inner, write, timing)
  throw argumentError('record', 'inner', 'an LLM (generate, stream) or an AI SDK language model', inner)
}

function isLLM(value: unknown): value is LLM {
  const llm = value as Partial<LLM> | null
  return typeof llm?.generate === 'function' && typeof llm.stream === 'function'
}

function lineWriter(options: RecordOptions): WriteLine {
  checkOptions('record', options, {
    to: ['a file path or a writable stream', (v) => typeof v === 'string' || typeof (v as WritableLike)?.write === 'function'],
    timings: ['a boolean', (v) => typeof v === 'boolean'],
  })
  const to = options?.to
  if (to === undefined || to === '') throw argumentError('record', 'option to', 'a file path or a writable stream', to)
  if (typeof to !== 'string') return (line) => void to.write(line)
  let ready = false
  return (line) => {
    if (!ready) mkdirSync(dirname(to), { recursive: true })
    ready = true
    // Synchronous, so lines never interleave and the file holds the turn when the call returns.
    appendFileSync(to, line)
  }
}

function recordLLM(inner: LLM, write: WriteLine, timing: StartTiming): LLM {
  const recorded: LLM = {
    async generate(req) {
      const snapshot = requestSnapshot(req)
      const taker = timing()
      const response = await inner.generate(req)
      write(serializeTurn(snapshot, response, taker?.timings()))
      return response
    },
    stream(req, options) {
      const snapshot = requestSnapshot(req)
      const taker = timing()
      return recordStream(inner.stream(req, options), (response) => write(serializeTurn(snapshot, response, taker?.timings())), taker)
    },
  }
  const { session } = inner
  if (session) recorded.session = (key) => recordLLM(session.call(inner, key), write, timing)
  return recorded
}

async function* recordStream(events: AsyncIterable<StreamEvent>, onEnd: (response: ModelResponse) => void, taker?: TimingsTaker): AsyncGenerator<StreamEvent> {
  const iterator = events[Symbol.asyncIterator]()
  let response: ModelResponse | undefined
  let failed = false
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (next.value.type === 'finish') response = next.value.response
      else taker?.delta()
      yield next.value
    }
  } catch (error) {
    failed = true
    throw error
  } finally {
    if (!failed && !response) {
      // The caller stopped reading early: read the rest, so the transcript holds the whole answer.
      try {
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          if (next.value.type === 'finish') response = next.value.response
          else taker?.delta()
        }
      } catch {
        failed = true
      }
    }
    if (!failed && response) onEnd(response)
  }
}

function recordLanguageModel(inner: AnyAiLanguageModel, write: WriteLine, timing: StartTiming): AnyAiLanguageModel {
  const call = inner as unknown as {
    doGenerate(options: AiCallOptions): Promise<Record<string, unknown>>
    doStream(options: AiCallOptions): Promise<{ stream: ReadableStream<Record<string, unknown>> }>
  }
  const requestOf = (options: AiCallOptions, stream: boolean): ModelRequest => requestSnapshot(toModelRequest(options, inner.modelId, stream))
  return {
    specificationVersion: inner.specificationVersion,
    provider: inner.provider,
    modelId: inner.modelId,
    get supportedUrls() {
      return (inner as { supportedUrls?: unknown }).supportedUrls
    },
    async doGenerate(options: AiCallOptions) {
      const snapshot = requestOf(options, false)
      const taker = timing()
      const result = await call.doGenerate(options)
      const collector = new AiResponseCollector()
      for (const part of (result.content as Array<Record<string, unknown>>) ?? []) collector.add(part)
      collector.add({ type: 'finish', finishReason: result.finishReason, usage: result.usage })
      collector.add({ type: 'response-metadata', ...(result.response as object) })
      write(serializeTurn(snapshot, collector.response()!, taker?.timings()))
      return result
    },
    async doStream(options: AiCallOptions) {
      const snapshot = requestOf(options, true)
      const taker = timing()
      const result = await call.doStream(options)
      return { ...result, stream: recordAiStream(result.stream, (response) => write(serializeTurn(snapshot, response, taker?.timings())), taker) }
    },
  } as AnyAiLanguageModel
}

function recordAiStream(stream: ReadableStream<Record<string, unknown>>, onEnd: (response: ModelResponse) => void, taker?: TimingsTaker): ReadableStream<Record<string, unknown>> {
  const reader = stream.getReader()
  const collector = new AiResponseCollector()
  const add = (part: Record<string, unknown>): void => {
    if (AI_DELTAS.has(part.type as string)) taker?.delta()
    collector.add(part)
  }
  const end = (): void => {
    const response = collector.response()
    if (response) onEnd(response)
  }
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) {
        end()
        return controller.close()
      }
      add(value)
      controller.enqueue(value)
    },
    async cancel() {
      // The caller stopped reading early: read the rest, so the transcript holds the whole answer.
      try {
        for (let next = await reader.read(); !next.done; next = await reader.read()) add(next.value)
        end()
      } catch {
        // A failed stream records nothing.
      }
    },
  })
}

/** The AI SDK stream parts that are deltas, for timings. */
const AI_DELTAS = new Set(['text-delta', 'reasoning-delta', 'tool-input-delta', 'tool-call'])

/** Rebuilds a neutral response from AI SDK content and stream parts. */
class AiResponseCollector {
  readonly #content: Part[] = []
  readonly #blocks = new Map<string, { type: 'text' | 'reasoning'; text: string }>()
  #response: Omit<ModelResponse, 'content'> = { finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } }
  #failed = false

  add(part: Record<string, unknown>): void {
    const type = part.type as string
    if (type === 'text-start' || type === 'reasoning-start') this.#block(part.id as string, type === 'text-start' ? 'text' : 'reasoning')
    else if (type === 'text-delta' || type === 'reasoning-delta') {
      this.#block(part.id as string, type === 'text-delta' ? 'text' : 'reasoning').text += String(part.delta ?? '')
    } else if (type === 'tool-call') {
      this.#content.push({ type: 'tool-call', id: String(part.toolCallId), name: String(part.toolName), args: parseArgs(part.input) })
    } else if (type === 'response-metadata') {
      if (typeof part.id === 'string') this.#response.id = part.id
      if (typeof part.modelId === 'string') this.#response.model = part.modelId
    } else if (type === 'finish') {
      const usage = (part.usage ?? {}) as Record<string, unknown>
      this.#response.finishReason = fromAiFinishReason(part.finishReason)
      this.#response.usage = { inputTokens: fromAiTokens(usage.inputTokens), outputTokens: fromAiTokens(usage.outputTokens) }
    } else if (type === 'error') this.#failed = true
    else this.#content.push(...fromAiContent(part))
  }

  #block(id: string, type: 'text' | 'reasoning'): { type: 'text' | 'reasoning'; text: string } {
    let block = this.#blocks.get(id)
    if (!block) {
      block = { type, text: '' }
      this.#blocks.set(id, block)
      this.#content.push(block)
    }
    return block
  }

  /** The whole response, or `undefined` when the stream carried an error. */
  response(): ModelResponse | undefined {
    if (this.#failed) return undefined
    return { content: this.#content.map((part) => ({ ...part })), ...this.#response }
  }
}
