/**
 * `ScriptedLLM` (SPEC §4): a model double that answers from a script — echo, reply map,
 * function, sequence, or a replayed transcript — and records every request it receives.
 * @module
 */
import type { LLM, ModelRequest, ModelResponse, StreamEvent, StreamOptions } from './types.js'
import { KIND } from '../kinds.js'
import { registerDouble } from '../registry.js'
import { argumentError, checkOptions, is } from '../internal/describe.js'
import { deepCopy, isHandedOver } from './helpers.js'
import { completeReply, isError } from './reply.js'
import { compileScript, transcriptSource, type Cursor, type Script, type TurnSource } from './script.js'
import { eachEvent, ImmediateStream, streamResponse, type Chunking, type Latency } from './stream-events.js'
import { loadTranscript } from './transcript.js'
import { checkReplaySpeed, noteTimings, replayPaced, replayWait, timingsOf } from './timings.js'
import { isUsage, type UsageOption } from './usage.js'
import { toLanguageModel, type AiLanguageModel } from './language-model.js'
import { compileRule, noRuleMatched, readRules, type Rule, type RuleMatch, type RuleOptions } from './rules.js'
import type { Reply, ReplyDraft } from './reply.js'

/** Options of a {@link ScriptedLLM}. */
export interface ScriptedLLMOptions {
  /** Ceiling on concurrent calls; extra calls wait, first come first served. @default unbounded */
  slots?: number
  /** The model id the double reports in its answers and as `languageModel()`'s id. @default the requested model, else 'mock' */
  model?: string
  /** How replies are split when streamed. @default 'words' */
  chunking?: Chunking
  /** Delays of streamed replies. @default { firstChunkMs: 0, chunkMs: 0 } */
  latency?: Latency
  /** How token usage is reported. @default 'estimate' */
  usage?: UsageOption
  /**
   * The vector a FakeProxy answers embedding requests with, on every dialect (OpenAI, Azure,
   * Gemini, Ollama, Bedrock). @default deterministic vectors derived from the text
   * @example
   * new FakeProxy({ llm: scriptedLLM([], { embed: (text) => (text.includes('cat') ? [1, 0] : [0, 1]) }) })
   */
  embed?: (text: string, model: string) => number[] | Promise<number[]>
}

/** Options of {@link ScriptedLLM.fromTranscript}. */
export interface TranscriptOptions extends ScriptedLLMOptions {
  /** Require each request's `system` and `messages` to equal the recorded ones. @default false */
  strict?: boolean
  /** Give each `languageModel()` and each caller identity its own cursor from turn 0. @default false */
  perCall?: boolean
  /**
   * Pace streamed answers as they were recorded (a transcript recorded with `timings: true`,
   * SPEC §19): `1` as recorded, `2` twice as fast, `0.5` half as fast; `0` or left out, at once.
   * A JSON answer waits its recorded time. On the real clock, so fake timers do not stall it.
   * @default instant
   * @example
   * const llm = await ScriptedLLM.fromTranscript('weather.jsonl', { replaySpeed: 1 })
   */
  replaySpeed?: number
}

/** What a ScriptedLLM declares about itself, for code that picks models by capability. */
export interface ModelCapabilities {
  contextWindow: number
  structuredOutput: boolean
  local: boolean
}

const OPTION_CHECKS: Parameters<typeof checkOptions>[2] = {
  slots: ['a positive integer', is.positiveInteger],
  model: ['a non-empty string', (v) => typeof v === 'string' && v !== ''],
  chunking: ["'words', 'chars' or a positive integer", (v) => v === 'words' || v === 'chars' || is.positiveInteger(v)],
  latency: ['{ firstChunkMs?, chunkMs? } of non-negative numbers', isLatency],
  usage: ["'estimate' or { inputTokens, outputTokens }", (v) => v === 'estimate' || isUsage(v)],
  embed: ['a function (text, model) => number[]', (v) => typeof v === 'function'],
}
const TRANSCRIPT_CHECKS: Parameters<typeof checkOptions>[2] = {
  ...OPTION_CHECKS,
  strict: ['a boolean', is.boolean],
  perCall: ['a boolean', is.boolean],
  replaySpeed: ['a non-negative number (1 = as recorded, 2 = twice as fast, 0 = instant)', is.nonNegativeNumber],
}

function isLatency(value: unknown): boolean {
  if (!is.object(value)) return false
  return Object.entries(value as object).every(
    ([key, ms]) => (key === 'firstChunkMs' || key === 'chunkMs') && (ms === undefined || is.nonNegativeNumber(ms)),
  )
}

/** Whether an object argument is options (every key an option name) rather than a reply map. */
function isOptionsObject(value: unknown): value is ScriptedLLMOptions {
  return is.object(value) && Object.keys(value as object).every((key) => Object.hasOwn(OPTION_CHECKS, key))
}

/** How a double is built when it does not come from `new ScriptedLLM(script, options)`. */
interface Blueprint {
  source: TurnSource
  options: ScriptedLLMOptions
  perCall: boolean
  rules: readonly Rule[]
  /** A transcript's replay pace (SPEC §19), when it paces at all. */
  replaySpeed?: number
}
let pendingBlueprint: Blueprint | undefined

/**
 * A model double answering from a script. Use it through the neutral {@link LLM} interface,
 * as a Vercel AI SDK model (`languageModel()`), or behind a `FakeProxy`.
 * @example
 * const llm = new ScriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'Sunny.'])
 * const { text } = await generateText({ model: llm.languageModel(), prompt: 'Weather?' })
 */
export class ScriptedLLM implements LLM {
  /** @internal */
  readonly [KIND] = 'ScriptedLLM' as const
  /** Every request received, in order (deep copies). */
  readonly requests: ModelRequest[] = []
  /** The response given for each request, or `undefined` where the call failed. */
  readonly responses: Array<ModelResponse | undefined> = []
  /** The `embed` option, checked: present only when it was given (see {@link ScriptedLLMOptions.embed}). */
  readonly embed?: (text: string, model: string) => Promise<number[]>
  readonly #source: TurnSource
  readonly #options: ScriptedLLMOptions
  readonly #perCall: boolean
  /** How fast a timed transcript replays, when it is paced (SPEC §19). */
  readonly #replaySpeed: number | undefined
  readonly #main: Cursor = { position: 0 }
  /** Every cursor handed out (perCall), so `reset()` rewinds them all. */
  readonly #cursors = new Set<Cursor>([this.#main])
  readonly #sessions = new Map<string, LLM>()
  readonly #waiting: Array<() => void> = []
  /** Rules added by `when()` (or a rules file), tried in order before the script. */
  readonly #rules: Rule[] = []
  /** How many calls each rule answered since the last reset, parallel to `#rules`. */
  readonly #ruleUses: number[] = []
  #inFlight = 0
  #maxConcurrent = 0

  /**
   * @param script A reply map, a function, an array of replies, or nothing (echo).
   * @throws TypeError naming `ScriptedLLM` when the script, one of its replies or an option is malformed.
   */
  constructor(script?: Script | ScriptedLLMOptions, options?: ScriptedLLMOptions) {
    const blueprint = pendingBlueprint
    pendingBlueprint = undefined
    if (blueprint) {
      ;({ source: this.#source, options: this.#options, perCall: this.#perCall, replaySpeed: this.#replaySpeed } = blueprint)
      for (const rule of blueprint.rules) this.#addRule(rule)
    } else {
      // One object whose keys are all option names is options; given beside options, it is the script.
      if (options === undefined && isOptionsObject(script)) [script, options] = [undefined, script]
      checkOptions('ScriptedLLM', options, OPTION_CHECKS)
      this.#source = compileScript(script)
      this.#options = { ...options }
      this.#perCall = false
      this.#replaySpeed = undefined
    }
    const embed = this.#options.embed
    if (embed) this.embed = async (text, model) => checkedVector(await embed(text, model))
    registerDouble(this)
  }

  /** Accepts every ScriptedLLM, also one made by another copy (ESM/CJS) of this package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return (value as { [KIND]?: unknown } | null)?.[KIND] === 'ScriptedLLM'
  }

  /**
   * A ScriptedLLM replaying a JSONL transcript, read from a path or given as text (SPEC §4.2).
   * @example
   * const llm = await ScriptedLLM.fromTranscript('test/transcripts/weather.jsonl', { strict: true })
   * @throws TypeError naming the file and line when the transcript is malformed; Error when it cannot be read.
   */
  static async fromTranscript(pathOrText: string, options: TranscriptOptions = {}): Promise<ScriptedLLM> {
    if (typeof pathOrText !== 'string' || pathOrText === '') {
      throw argumentError('ScriptedLLM.fromTranscript', 'pathOrText', 'a file path or transcript text', pathOrText)
    }
    checkOptions('ScriptedLLM.fromTranscript', options, TRANSCRIPT_CHECKS)
    const { strict = false, perCall = false, replaySpeed, ...rest } = options
    checkReplaySpeed('ScriptedLLM.fromTranscript', replaySpeed)
    const turns = await loadTranscript(pathOrText)
    return ScriptedLLM.#build({ source: transcriptSource(turns, strict), options: rest, perCall, rules: [], replaySpeed: replaySpeed || undefined })
  }

  /**
   * A ScriptedLLM answering from a rules file (SPEC §14): a JSON array of `{ match, reply, times? }`
   * read from a path, or given as text (it starts with `[` or holds a newline); in `match`, a
   * string `"/source/flags"` is a RegExp. A call no rule answers fails, listing the rules.
   * @example
   * const llm = await ScriptedLLM.fromRules('test/rules/weather.json')
   * @throws TypeError naming the file and line when the rules are malformed; Error when the file cannot be read.
   */
  static async fromRules(pathOrText: string, options: ScriptedLLMOptions = {}): Promise<ScriptedLLM> {
    if (typeof pathOrText !== 'string' || pathOrText === '') {
      throw argumentError('ScriptedLLM.fromRules', 'pathOrText', 'a file path or rules text (a JSON array)', pathOrText)
    }
    checkOptions('ScriptedLLM.fromRules', options, OPTION_CHECKS)
    const rules = await readRules(pathOrText)
    let llm: ScriptedLLM | undefined
    const unmatched: TurnSource = {
      kind: 'function',
      length: undefined,
      answer: (req, _cursor, callNumber) => noRuleMatched(callNumber, req, rules, llm ? llm.#ruleUses : []),
      describeTurn: () => 'rules',
    }
    llm = ScriptedLLM.#build({ source: unmatched, options: { ...options }, perCall: false, rules })
    return llm
  }

  /**
   * Adds a rule, tried in order before the script (and before rules added later): when `match`
   * holds for a call, the call is answered with `reply` — and the script's cursor does not move.
   * `match` is a predicate of the request or `{ model?, system?, lastUser?, toolOffered?,
   * lastToolResult?, turn? }` (a string is a substring ignoring case; a RegExp or a predicate
   * also work; `turn` is the 1-based call number). `reply` is any {@link Reply}, or a function of
   * the request returning one. With `times`, the rule answers that many calls, then steps aside.
   * @example
   * llm.when({ lastUser: /weather/i, toolOffered: 'get_weather' }, toolCall('get_weather', { city: 'Paris' }), { times: 1 })
   * @throws TypeError naming `ScriptedLLM.when` when the match, the reply or `times` is malformed.
   */
  when(match: RuleMatch | ((req: ModelRequest) => boolean), reply: Reply | ((req: ModelRequest) => Reply | Promise<Reply>), options?: RuleOptions): this {
    this.#addRule(compileRule('ScriptedLLM.when', match, reply, options, `rule ${this.#rules.length + 1}`))
    return this
  }

  #addRule(rule: Rule): void {
    this.#rules.push(rule)
    this.#ruleUses.push(0)
  }

  static #build(blueprint: Blueprint): ScriptedLLM {
    pendingBlueprint = blueprint
    return new ScriptedLLM()
  }

  /** Answers one call. */
  generate(req: ModelRequest): Promise<ModelResponse> {
    return this.#generate(req, this.#main)
  }

  /** Answers one call as a stream of events ending with one `finish`. */
  stream(req: ModelRequest, options?: StreamOptions): AsyncIterable<StreamEvent> {
    return this.#stream(req, this.#main, options)
  }

  /** The LLM serving one caller identity: its own cursor for a `perCall` transcript, else this double. */
  session(key: string): LLM {
    if (!this.#perCall) return this
    let session = this.#sessions.get(key)
    if (!session) this.#sessions.set(key, (session = this.#view(this.#newCursor())))
    return session
  }

  /**
   * This double as a Vercel AI SDK language model (`ai` 6 and 7). For a `perCall` transcript
   * each call gives a model with its own cursor from turn 0.
   * @example
   * await generateText({ model: llm.languageModel(), prompt: 'hello' })
   */
  languageModel(modelId?: string): AiLanguageModel {
    if (modelId !== undefined && typeof modelId !== 'string') throw argumentError('ScriptedLLM', 'modelId', 'a string', modelId)
    const llm = this.#perCall ? this.#view(this.#newCursor()) : this
    return toLanguageModel(llm, { modelId: modelId ?? this.#model, provider: 'agent-doubles.scripted' })
  }

  /** A new double over the same script and options, with its own cursor from turn 0 and its own records. */
  fork(): ScriptedLLM {
    return ScriptedLLM.#build({ source: this.#source, options: this.#options, perCall: this.#perCall, rules: this.#rules, replaySpeed: this.#replaySpeed })
  }

  /**
   * Clears recorded requests and responses, keeping every cursor where it is (a FakeProxy's
   * `reset()` calls it on its brain).
   * @example
   * llm.clearRecords() // llm.callCount === 0; the next call gets the next scripted turn
   */
  clearRecords(): void {
    this.requests.length = 0
    this.responses.length = 0
  }

  /** Clears recorded requests and responses and rewinds every cursor. */
  reset(): void {
    this.requests.length = 0
    this.responses.length = 0
    this.#maxConcurrent = this.#inFlight
    for (const cursor of this.#cursors) cursor.position = 0
    this.#ruleUses.fill(0)
  }

  /** How many calls were made. */
  get callCount(): number {
    return this.requests.length
  }

  /** The most calls seen in flight at once. */
  get maxConcurrent(): number {
    return this.#maxConcurrent
  }

  /** Turns left, for scripts with an end (array, transcript); with `perCall`, of the least advanced cursor used. */
  get turnsRemaining(): number | undefined {
    const { length } = this.#source
    if (length === undefined) return undefined
    return length - this.#laggingCursor().position
  }

  /** What the double declares: a 1M context window, structured output, not local. */
  get capabilities(): ModelCapabilities {
    return { contextWindow: 1_000_000, structuredOutput: true, local: false }
  }

  /**
   * Throws unless every scripted turn was consumed, listing the ones that were not.
   * @example
   * llm.assertComplete()
   */
  assertComplete(): void {
    const remaining = this.turnsRemaining
    if (!remaining) return
    const length = this.#source.length ?? 0
    const lines: string[] = []
    for (let i = length - remaining; i < length; i++) lines.push(`  turn ${i + 1}: ${this.#source.describeTurn(i)}`)
    throw new Error(`[agent-doubles] ScriptedLLM: ${remaining} of ${length} scripted turns were not consumed:\n${lines.join('\n')}`)
  }

  get #model(): string {
    return this.#options.model ?? 'mock'
  }

  #newCursor(): Cursor {
    const cursor = { position: 0 }
    this.#cursors.add(cursor)
    return cursor
  }

  /** The cursor furthest from the end among those used (all unused: the main one, at 0). */
  #laggingCursor(): Cursor {
    const used = [...this.#cursors].filter((cursor) => cursor.position > 0)
    if (!this.#perCall || used.length === 0) return this.#perCall ? { position: 0 } : this.#main
    return used.reduce((least, cursor) => (cursor.position < least.position ? cursor : least))
  }

  #view(cursor: Cursor): LLM {
    return { generate: (req) => this.#generate(req, cursor), stream: (req, options) => this.#stream(req, cursor, options), ...(this.embed ? { embed: this.embed } : {}) }
  }

  async #generate(req: ModelRequest, cursor: Cursor): Promise<ModelResponse> {
    const index = this.#record(req)
    const waiting = this.#acquire()
    if (waiting) await waiting
    try {
      const answer = this.#answer(req, cursor, index)
      const response = answer instanceof Promise ? await answer : answer
      const timings = this.#replaySpeed ? timingsOf(response) : undefined
      if (timings) await replayWait(timings, this.#replaySpeed!)
      return response
    } finally {
      this.#release()
    }
  }

  #stream(req: ModelRequest, cursor: Cursor, options: StreamOptions = {}): AsyncIterableIterator<StreamEvent> {
    const { chunking = 'words', latency } = this.#options
    if (latency?.firstChunkMs || latency?.chunkMs || this.#replaySpeed) return this.#delayedStream(req, cursor, options)
    // No delays: every event is known once the answer is, so the proxy can take them all at once.
    const start = async (): Promise<Iterable<StreamEvent>> => {
      const response = await this.#acceptedAnswer(req, cursor, options)
      return eachEvent(response, chunking)
    }
    return new ImmediateStream(start, () => this.#release(), () => options.signal)
  }

  async *#delayedStream(req: ModelRequest, cursor: Cursor, options: StreamOptions): AsyncGenerator<StreamEvent> {
    const response = await this.#acceptedAnswer(req, cursor, options)
    try {
      const timings = this.#replaySpeed ? timingsOf(response) : undefined
      const chunking = this.#options.chunking ?? 'words'
      if (timings) yield* replayPaced(eachEvent(response, chunking), timings, this.#replaySpeed!, options.signal)
      else yield* streamResponse(response, chunking, this.#options.latency, options.signal)
    } finally {
      this.#release()
    }
  }

  /** Records the call, takes a slot and answers it; the caller releases the slot once the stream ends. */
  async #acceptedAnswer(req: ModelRequest, cursor: Cursor, options: StreamOptions): Promise<ModelResponse> {
    const index = this.#record(req)
    const waiting = this.#acquire()
    if (waiting) await waiting
    try {
      const answer = this.#answer(req, cursor, index)
      const response = answer instanceof Promise ? await answer : answer
      options.onAccepted?.()
      return response
    } catch (error) {
      this.#release()
      throw error
    }
  }

  /**
   * Records the request — a deep copy, unless its maker handed it over (a FakeProxy's decoded
   * request: it is recorded once, not copied again) — and returns its index.
   */
  #record(req: ModelRequest): number {
    if (!is.object(req) || !Array.isArray(req.messages)) {
      throw argumentError('ScriptedLLM', 'request', 'a ModelRequest { model, messages, stream }', req)
    }
    this.requests.push(isHandedOver(req) ? req : deepCopy(req))
    this.responses.push(undefined)
    return this.requests.length - 1
  }

  /**
   * The answer to call `index`: at once when its reply is (a scripted reply, a map's or an
   * array's), so an answer the script already holds costs no promise; else once it settles.
   */
  #answer(req: ModelRequest, cursor: Cursor, index: number): ModelResponse | Promise<ModelResponse> {
    const rule = this.#ruleFor(req, index + 1)
    const draft = rule ? rule.answer(req, index + 1) : this.#source.answer(req, cursor, index + 1)
    return draft instanceof Promise ? draft.then((settled) => this.#complete(settled, req, index)) : this.#complete(draft, req, index)
  }

  #complete(draft: ReplyDraft | Error, req: ModelRequest, index: number): ModelResponse {
    if (isError(draft)) throw draft
    const model = this.#options.model ?? (typeof req.model === 'string' && req.model !== '' ? req.model : 'mock')
    const response = completeReply(draft, { req, callNumber: index + 1, usage: this.#options.usage ?? 'estimate', model })
    const timings = this.#replaySpeed ? timingsOf(draft as object) : undefined
    if (timings) noteTimings(response, timings)
    // reset() between the call and its answer empties the records; then there is nothing to fill.
    // A handed-over request's answer goes to a maker that only encodes and keeps it: no copy.
    if (this.responses.length > index) this.responses[index] = isHandedOver(req) ? response : deepCopy(response)
    return response
  }

  /**
   * Whether a rule added with `when()` (or a rules file) would answer `req` as the next call,
   * without counting a use. A FakeProxy asks before it answers a runtime's side request from its
   * built-in default (SPEC §17): a rule that matches one explicitly answers it instead.
   * @internal
   */
  hasRuleFor(req: ModelRequest): boolean {
    const turn = this.requests.length + 1
    return this.#rules.some((rule, i) => (rule.times === undefined || this.#ruleUses[i] < rule.times) && rule.matches(req, turn))
  }

  /** The first rule with uses left whose match holds; its use is counted now, before any await. */
  #ruleFor(req: ModelRequest, turn: number): Rule | undefined {
    // A loop over the length at the start, as findIndex() reads it, without a closure per call.
    const rules = this.#rules
    for (let index = 0, count = rules.length; index < count; index++) {
      const rule = rules[index]
      if ((rule.times === undefined || this.#ruleUses[index] < rule.times) && rule.matches(req, turn)) {
        this.#ruleUses[index]++
        return rule
      }
    }
    return undefined
  }

  /** Takes a slot: at once when one is free (`undefined`), else a promise that settles with one. */
  #acquire(): Promise<void> | undefined {
    const slots = this.#options.slots
    if (slots !== undefined && this.#inFlight >= slots) {
      return new Promise<void>((resolve) => this.#waiting.push(resolve)).then(() => {
        this.#maxConcurrent = Math.max(this.#maxConcurrent, this.#inFlight)
      })
    }
    this.#inFlight++
    this.#maxConcurrent = Math.max(this.#maxConcurrent, this.#inFlight)
    return undefined
  }

  /** Hands the slot straight to the next waiting call (first come, first served), or frees it. */
  #release(): void {
    const next = this.#waiting.shift()
    if (next) next()
    else this.#inFlight--
  }
}

/** What an `embed` option returned, checked to be a non-empty array of finite numbers. */
function checkedVector(vector: unknown): number[] {
  if (Array.isArray(vector) && vector.length > 0 && vector.every((value) => typeof value === 'number' && Number.isFinite(value))) return vector
  throw argumentError('ScriptedLLM', 'embed option result', 'a non-empty array of finite numbers', vector)
}

/**
 * Makes a {@link ScriptedLLM}; `scriptedLLM(script?, options?)` ≡ `new ScriptedLLM(script?, options?)`.
 * @example
 * const llm = scriptedLLM({ hello: 'hi there' })
 * @throws TypeError naming `ScriptedLLM` when the script, one of its replies or an option is malformed.
 */
export function scriptedLLM(script?: Script | ScriptedLLMOptions, options?: ScriptedLLMOptions): ScriptedLLM {
  return new ScriptedLLM(script, options)
}
