/**
 * `FakeProxy`: a fake LLM gateway on real HTTP (127.0.0.1) that the official SDKs cannot tell
 * from the real thing. This class is a thin binding: it validates arguments and owns the state;
 * `handle-request.ts` serves requests and `server.ts` holds the sockets.
 * @module
 */
import { PREFIX, argumentError, checkOptions, describeValue, is } from '../internal/describe.js'
import { KIND, kindOf } from '../kinds.js'
import type { LLM } from '../llm/types.js'
import { isRefusalCode, refusalCodes, type RefusalCode } from '../refusal-codes.js'
import { registerDouble } from '../registry.js'
import { AgentBook } from './agent-book.js'
import { defaultBrain } from './default-brain.js'
import { FaultPlan, type FailOptions } from './faults.js'
import { handleRequest, type ProxyState } from './handle-request.js'
import { RecordMode, validateRecordOptions, type UpstreamOrigins } from './record-mode.js'
import type { TranscriptStream } from './upstream/transcript-sink.js'
import { checkAgentNames } from './identity.js'
import { answerCrash, startServer, type RunningServer } from './server.js'
import { inProcessTransport, type InProcessTransport } from './in-process.js'
import { allFeatures, type AgentDefinition, type FakeRequest, type ProxyFeature, type Refusal } from './types.js'

/** Options of `new FakeProxy()`. */
export interface FakeProxyOptions {
  /**
   * The agent names enrolled (each matching `^[a-z][a-z0-9_-]{0,63}$`).
   * @default every valid name is enrolled
   */
  agents?: readonly string[]
  /**
   * Refuse model requests that name no agent (`agent_required`).
   * @default false
   */
  strict?: boolean
  /**
   * What `GET /viper/v1/info` reports; a request needing a feature left out is refused with
   * `feature_unsupported`, as an older proxy would.
   * @default every feature
   */
  features?: readonly ProxyFeature[]
  /**
   * The brain answering model requests.
   * @default a short canned reply
   */
  llm?: LLM
  /**
   * Record mode (with `record`): model requests of each dialect that has an origin here are
   * forwarded to it, with the caller's own auth headers, and streamed back unchanged.
   * @default nothing is ever forwarded
   */
  upstream?: UpstreamOrigins
  /**
   * Record mode (with `upstream`): where each forwarded turn is appended as a JSONL transcript
   * line that `ScriptedLLM.fromTranscript` replays. Secrets are never written.
   * @default nothing is recorded
   */
  record?: string | TranscriptStream
}

/** Options of {@link FakeProxy.start}. */
export interface StartOptions {
  /** The port to listen on; 0 takes a free one. @default 0 */
  port?: number
}

const isPort = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65_535

/** Options of `proxy.refuse()`. */
export interface RefuseOptions {
  /** How many of the next model requests to refuse. @default 1 */
  times?: number
  /** The refusal's message. @default the code's meaning */
  message?: string
  /** What the caller should do about it. */
  hint?: string
}

/** Options of `proxy.reply()`. */
export interface ReplyOptions {
  /** The HTTP status of the answer, 200–599. @default 200 */
  status?: number
}

/** A `reply()` body: a JSON value, or a function of the request giving one. */
export type ReplyBody = unknown | ((req: FakeRequest) => unknown)

export type { FailOptions, FaultKind } from './faults.js'

const OWNER = 'FakeProxy'
let proxies = 0

function isLLM(value: unknown): value is LLM {
  const llm = value as Partial<LLM> | null
  return typeof llm === 'object' && llm !== null && typeof llm.generate === 'function' && typeof llm.stream === 'function'
}

const LLM_EXPECTED = 'an LLM (an object with generate() and stream(), such as a ScriptedLLM)'

/** A deep copy where possible: records must not change when a test edits what it read. */
function copy<T>(value: T): T {
  try {
    return structuredClone(value)
  } catch {
    return { ...value }
  }
}

/**
 * A fake LLM gateway over real HTTP: OpenAI Chat and Responses, Anthropic Messages,
 * embeddings and the model list, plus the proxy's agent identity, refusals and local agent API.
 * @example
 * await using proxy = await new FakeProxy({ agents: ['researcher'] }).start()
 * const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1` })
 * @throws {TypeError} an option has the wrong type, an agent name is invalid, or an option is unknown.
 */
export class FakeProxy {
  /** Brand recognised by the matchers across the ESM and CJS copies of the package. */
  readonly [KIND] = 'FakeProxy' as const

  /** `instanceof` by brand, so it holds across copies of the package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return kindOf(value) === 'FakeProxy'
  }

  #server: RunningServer | undefined
  #starting = false
  #llm: LLM | undefined
  readonly #state: ProxyState
  #inProcess: InProcessTransport | undefined

  constructor(options: FakeProxyOptions = {}) {
    checkOptions(OWNER, options, {
      agents: ['an array of agent names', () => true],
      strict: ['a boolean', is.boolean],
      features: [`an array of features (${allFeatures.join(', ')})`, (value) => Array.isArray(value) && value.every((f) => allFeatures.includes(f))],
      llm: [LLM_EXPECTED, isLLM],
      upstream: ['{ openai?: origin, anthropic?: origin }', () => true],
      record: ['a transcript file path or a writable stream', () => true],
    })
    validateRecordOptions(OWNER, options.upstream, options.record)
    const agents = checkAgentNames(OWNER, options.agents)
    this.#llm = options.llm
    const tag = `fake${++proxies}`
    let count = 0
    this.#state = {
      book: new AgentBook(agents),
      strict: options.strict ?? false,
      features: new Set(options.features ?? allFeatures),
      brain: () => this.#llm ?? defaultBrain,
      requests: [],
      refusals: [],
      pendingRefusals: [],
      faults: new FaultPlan(),
      reply: undefined,
      recordMode:
        options.upstream && options.record
          ? new RecordMode({ upstream: options.upstream, record: options.record })
          : undefined,
      nextId: () => `${tag}_${(++count).toString().padStart(6, '0')}`,
    }
    registerDouble(this)
  }

  /**
   * Listens on a free port of 127.0.0.1 (or on `port`, as `agent-doubles serve --port` does).
   * Started again after `close()`, it takes a new port and keeps what it recorded.
   * @example
   * const proxy = await new FakeProxy().start()
   * @throws {Error} it is already running, or `port` is taken.
   * @throws {TypeError} `port` is not an integer from 0 to 65535.
   */
  async start(options: StartOptions = {}): Promise<this> {
    checkOptions(OWNER, options, { port: ['an integer from 0 to 65535', isPort] })
    if (this.#server || this.#starting) throw new Error(`${PREFIX} ${OWNER}: start() called while it is running (at ${this.#server?.url ?? 'a port being opened'}); close() it first`)
    this.#starting = true
    try {
      this.#server = await startServer((req, res) => handleRequest(req, res, this.#state), options.port)
    } finally {
      this.#starting = false
    }
    return this
  }

  /**
   * Stops listening and destroys every open connection, in-flight streams included; a no-op
   * when not running.
   * @example
   * afterAll(() => proxy.close())
   */
  async close(): Promise<void> {
    const server = this.#server
    this.#server = undefined
    this.#inProcess?.close()
    await server?.close()
    await this.#state.recordMode?.close()
  }

  /**
   * Forgets every registered definition, as a restarted proxy does (it keeps its port and
   * records); clients must register again.
   * @example
   * proxy.restart() // the next request with an old X-Viper-Definition gets definition_unknown
   */
  restart(): void {
    this.#state.book.restart()
  }

  /**
   * Clears records (the brain's too, via its `clearRecords()`), pending refusals, planned
   * faults and the `reply()` override, and forgets definitions; keeps running on the same port. The setup entries call it after each test.
   * @example
   * afterEach(() => proxy.reset())
   */
  reset(): void {
    const state = this.#state
    state.requests.length = 0
    state.refusals.length = 0
    state.pendingRefusals.length = 0
    state.faults.clear()
    state.reply = undefined
    state.book.reset()
    // The brain's records of these requests go too (its place in its script stays).
    this.#llm?.clearRecords?.()
  }

  /** Called when the test that made this proxy ends: closes it. @internal */
  dispose(): Promise<void> {
    return this.close()
  }

  /**
   * Closes the proxy at the end of an `await using` block.
   * @example
   * await using proxy = await new FakeProxy().start()
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  /**
   * `http://127.0.0.1:<port>`. OpenAI clients and the AI SDK take `${url}/v1`; the Anthropic
   * SDK takes `url`.
   * @example
   * new Anthropic({ apiKey: 'test', baseURL: proxy.url })
   * @throws {Error} the proxy is not running.
   */
  get url(): string {
    if (!this.#server) throw new Error(`${PREFIX} ${OWNER}: url read while it is not running; await proxy.start() first`)
    return this.#server.url
  }

  /**
   * A `fetch` that serves every route of this proxy in process, with no socket: give it to a
   * client as its `fetch` option (any base URL; only the path counts). Records, checks, plans
   * and matchers are the proxy's own; streaming, aborts and faults behave as over HTTP. Works
   * without `start()`; `close()` ends the answers it is still streaming.
   * @example
   * const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi' }) })
   * const client = new OpenAI({ apiKey: 'test', baseURL: 'http://fake/v1', fetch: proxy.fetch })
   */
  get fetch(): typeof globalThis.fetch {
    this.#inProcess ??= inProcessTransport((req, res) => handleRequest(req, res, this.#state), answerCrash)
    return this.#inProcess.fetch
  }

  /**
   * Answers model requests with `llm` from now on.
   * @example
   * proxy.use(new ScriptedLLM(['hello']))
   * @throws {TypeError} `llm` has no `generate()` and `stream()`.
   */
  use(llm: LLM): this {
    if (!isLLM(llm)) throw argumentError(`${OWNER} use()`, 'llm', LLM_EXPECTED, llm)
    this.#llm = llm
    return this
  }

  /**
   * Every model request that got through, oldest first (copies; refused requests are in
   * {@link FakeProxy.refusals}).
   * @example
   * expect(proxy.requests.at(-1)?.agent).toBe('researcher')
   */
  get requests(): FakeRequest[] {
    return this.#state.requests.map(copy)
  }

  /**
   * Every refusal, oldest first (copies).
   * @example
   * expect(proxy.refusals.map((r) => r.code)).toEqual(['rate_limited'])
   */
  get refusals(): Refusal[] {
    return this.#state.refusals.map(copy)
  }

  /**
   * Each agent's latest registered definition, defaults filled and empty fields dropped (copies).
   * @example
   * expect(proxy.definitions.researcher.model).toBe('gpt-5')
   */
  get definitions(): Record<string, AgentDefinition> {
    return this.#state.book.definitions()
  }

  /**
   * Refuses the next model requests with `code`, as the proxy would (SPEC §5.4).
   * @example
   * proxy.refuse('rate_limited', { times: 2 })
   * @throws {RangeError} `code` is unknown or `times` is below 1.
   */
  refuse(code: RefusalCode, options: RefuseOptions = {}): this {
    if (!isRefusalCode(code)) {
      throw new RangeError(`${PREFIX} ${OWNER} refuse(): unknown refusal code ${describeValue(code)}; valid codes: ${Object.keys(refusalCodes).join(', ')}`)
    }
    checkOptions(`${OWNER} refuse()`, options, {
      times: ['an integer of at least 1', (value) => typeof value === 'number'],
      message: ['a string', is.string],
      hint: ['a string', is.string],
    })
    const times = options.times ?? 1
    if (!Number.isInteger(times) || times < 1) throw new RangeError(`${PREFIX} ${OWNER} refuse(): times must be an integer of at least 1, got ${describeValue(times)}`)
    this.#state.pendingRefusals.push({ code, remaining: times, message: options.message, hint: options.hint })
    return this
  }

  /**
   * Answers every model request from now on with `body` as JSON (never streamed); `body` may
   * be a function of the request. A function that throws, or a body JSON cannot carry, is
   * answered with a 500 naming the error.
   * @example
   * proxy.reply({ error: { message: 'overloaded' } }, { status: 529 })
   * @throws {RangeError} `status` is outside 200–599.
   */
  reply(body: (req: FakeRequest) => unknown, options?: ReplyOptions): this
  reply(body: unknown, options?: ReplyOptions): this
  reply(body: ReplyBody, options: ReplyOptions = {}): this {
    checkOptions(`${OWNER} reply()`, options, { status: ['an integer from 200 to 599', (value) => typeof value === 'number'] })
    const status = options.status ?? 200
    if (!Number.isInteger(status) || status < 200 || status > 599) {
      throw new RangeError(`${PREFIX} ${OWNER} reply(): status must be an integer from 200 to 599, got ${describeValue(status)}`)
    }
    this.#state.reply = { body, status }
    return this
  }

  /**
   * Breaks the next answers mid-way (SPEC §5.7): the socket is cut after `afterChunks` SSE
   * events (`disconnect`), the body is invalid JSON (`malformed`), or it stops sending without
   * closing (`stall`; `close()` still ends it).
   * @example
   * proxy.fail({ kind: 'disconnect', afterChunks: 2 })
   * @throws {TypeError} the options are malformed.
   */
  fail(options: FailOptions): this {
    this.#state.faults.add(options)
    return this
  }
}
