/**
 * `FakeProxy`: a fake LLM gateway on real HTTP (127.0.0.1) that the official SDKs cannot tell
 * from the real thing. This class is a thin binding: it validates arguments and owns the state;
 * `handle-request.ts` serves requests and `server.ts` holds the sockets.
 * @module
 */
import { PREFIX, argumentError, checkOptions, describeValue, is } from '../internal/describe.js'
import { KIND, kindOf } from '../kinds.js'
import type { LLM } from '../llm/types.js'
import { checkProviderError, type ProviderErrorName, type ProviderErrorPlanOptions } from '../provider-errors.js'
import { isRefusalCode, refusalCodes, type RefusalCode } from '../gateway/refusal-codes.js'
import { registerDouble, releaseDouble, reviveDouble, unregisterDouble } from '../registry.js'
import { AgentBook } from '../gateway/agent-book.js'
import { defaultBrain } from './default-brain.js'
import type { ControlTarget } from './control-api.js'
import { FaultPlan, type FailOptions } from './faults.js'
import { handleRequest, type ProxyState } from './handle-request.js'
import { DEFAULT_MAX_BODY_VALUES } from './body-values.js'
import { RecordMode, validateRecordOptions, type UpstreamOrigins } from '../upstream/record-mode.js'
import type { TranscriptStream } from '../upstream/transcript-sink.js'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { checkAgentNames } from '../gateway/identity.js'
import { answerNoLane, LaneTable, laneHeaderOf } from './lanes.js'
import { clientEnv } from './client-env.js'
import { pathOf, turnedAwayRecord } from './turned-away.js'
import { ResponseMemory } from '../wire/response-memory.js'
import { answerCrash } from './crash-answer.js'
import type { RunningServer } from './server.js'
import { serverErrorBody } from './server-errors.js'
import { inProcessTransport, type InProcessTransport } from './in-process.js'
import { PromptCache } from '../llm/prompt-cache.js'
import type { PromptSettings } from './prompt-usage.js'
import { usageReport, type ProxyUsage } from './usage-report.js'
import { allFeatures, type AgentDefinition, type FakeRequest, type ProxyFeature, type Refusal } from './types.js'
import { checkMisbehave, misbehave, type MisbehaveOptions, type MisbehaviourKind } from '../llm/misbehave.js'
import { ChaosState, chaosConfig, type ChaosOptions } from './chaos.js'
import { checkPacing, paces, type PacingOptions } from './pacing.js'
import { checkRateLimit, RateWindow, type RateLimitOptions } from './rate-limit.js'
import type { WebSocketHub } from './websocket/upgrade.js'
import { closeSessions, realtimeOf, resetSessions, sessionsOf, type ProxyRealtime } from './websocket/proxy-sessions.js'
import type { WebSocketSession } from './websocket/session-book.js'

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
  /**
   * Check model requests as the providers check them and answer what they would reject with
   * their 400 (SPEC §10.3); rejected requests are recorded with `status` and `error`.
   * @default true
   */
  validate?: boolean
  /**
   * Serve the control API under `/_agent-doubles/` (`GET requests`, `POST reset`, `PUT script`,
   * …), for suites in other languages driving `agent-doubles serve`, which turns it on.
   * @default false
   */
  controlApi?: boolean
  /**
   * Seeded chaos from the start (SPEC §19), on the proxy and every lane: see {@link FakeProxy.chaos}.
   * @default off
   */
  chaos?: ChaosOptions
  /**
   * Paced streams (SPEC §19), on the proxy and every lane: the first delta after `ttftMs`, the
   * rest at `tokensPerSecond` with seeded `jitter`, on the real clock unless `clock: 'test'`.
   * @default unpaced
   */
  latency?: PacingOptions
  /**
   * Rate limits by requests and tokens per sliding minute (SPEC §19), each lane its own window:
   * past them, the provider's `rate_limit` error with `retry-after`.
   * @default unlimited
   */
  rateLimit?: RateLimitOptions
  /**
   * How usage counts tokens (SPEC §20): `'tokenizer'` counts OpenAI models with their real
   * tokenizer (`o200k_base` / `cl100k_base`, loaded on first use) and every other model with the
   * documented estimate; `'estimate'` estimates every model. With `promptCache: false` as well,
   * the proxy counts nothing itself: usage is the brain's own, and no context window is enforced.
   * @default 'tokenizer'
   */
  tokens?: 'tokenizer' | 'estimate'
  /**
   * Simulate each provider's prompt cache, per lane (SPEC §20): usage reports cache reads and
   * writes, and `toHaveHitPromptCache` can judge them.
   * @default true
   */
  promptCache?: boolean
  /**
   * How long a request's headers and body may take to arrive; a connection still waiting then
   * is answered 408 and closed, so stalled sockets do not pile up (SPEC §24).
   * @default 60000
   */
  requestTimeoutMs?: number
  /**
   * The most JSON values (objects, arrays, strings, numbers, booleans, nulls; keys not counted)
   * one request body may hold; a body with more is answered with the route's 400 before it is
   * parsed, and recorded (SPEC §24). Validation, decoding and the prompt layout each walk the
   * whole request at once, so a body of hundreds of thousands of small items would hold the
   * event loop for seconds. The default keeps a body just under it below SPEC §24's 250 ms; a
   * conversation of a few thousand messages holds tens of thousands.
   * @default 300000
   * @example
   * const proxy = await new FakeProxy({ maxBodyValues: 2_000_000 }).start()
   */
  maxBodyValues?: number
}

/**
 * Options of `proxy.misbehave()`: those of `misbehave()`, and how many requests get it.
 * @example
 * proxy.misbehave('truncated', { at: 'tool-call', times: 2 })
 */
export interface MisbehavePlanOptions extends MisbehaveOptions {
  /** How many of the next model requests misbehave. @default 1 */
  times?: number
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

/** What `proxy.lane()` hands the lane it constructs. */
interface LaneSeed {
  readonly parent: FakeProxy
  readonly parentState: ProxyState
  readonly table: LaneTable
  readonly options: FakeProxyOptions
  readonly id: string
  readonly name: string
  readonly test: boolean
  /** The key of the lane's chaos: its test's full name, else its name. */
  readonly testName: string
  /** The lane's own chaos (`false`: none), overriding its proxy's. */
  readonly chaos?: ChaosOptions | false
  /** A fixture's test lane: snapshots title it without its name. */
  readonly fixture?: boolean
}

/**
 * Set by `lane()` for exactly the duration of `new ProxyLane()`: the FakeProxy constructor
 * reads it to build a lane instead of a proxy. A module variable rather than a constructor
 * parameter, so the public constructor stays `new FakeProxy(options)`.
 */
let laneSeed: LaneSeed | undefined

/** What a crash report reads of a request the in-process transport could not name. */
const IN_PROCESS_REQUEST = { method: 'POST', url: '/', headers: {} } as IncomingMessage

/** The brand of a lane, so `instanceof ProxyLane` holds across the ESM and CJS copies. */
const LANE = Symbol.for('agent-doubles.proxy-lane')

/** Marks a lane a fixture made for its test: snapshots title it `ProxyLane`, without its name (matchers/snapshot.ts). */
const TEST_LANE = Symbol.for('agent-doubles.test-lane')

/** {@link openTestLane}'s body, set inside the class, where it can reach the proxy's private fields. */
let openFixtureLane: (proxy: FakeProxy, name: string, testName: string) => ProxyLane
/** {@link serveTestsOnly}'s body, set inside the class. */
let refuseIdleRoot: (proxy: FakeProxy) => void

/**
 * Options of `proxy.lane()`: the lane's own timing and chaos (SPEC §19), overriding its
 * proxy's (`false` turns the proxy's off for the lane), and two the fixtures use.
 * @example
 * const slow = proxy.lane('slow model', { latency: { ttftMs: 800 }, rateLimit: { requestsPerMinute: 2 }, chaos: false })
 */
export interface LaneOptions {
  /** Paced streams on this lane instead of the proxy's `latency`; `false` unpaced. @default the proxy's */
  latency?: PacingOptions | false
  /** Rate limits on this lane instead of the proxy's `rateLimit`; `false` unlimited. @default the proxy's */
  rateLimit?: RateLimitOptions | false
  /** Seeded chaos on this lane instead of the proxy's; `false` none. @default the proxy's */
  chaos?: ChaosOptions | false
  /** @internal */
  /**
   * The lane belongs to a running test: a request that names no lane goes to it when it is the
   * only test lane open (SPEC §9).
   */
  test?: boolean
  /** The full name of the test the lane belongs to (`describe > test`), the key of its chaos. @internal */
  testName?: string
}

const LANE_CHECKS: Parameters<typeof checkOptions>[2] = {
  latency: ['{ ttftMs?, tokensPerSecond?, jitter?, seed?, clock? } or false', (value) => value === false || is.object(value)],
  rateLimit: ['{ requestsPerMinute?, tokensPerMinute? } or false', (value) => value === false || is.object(value)],
  chaos: ['{ seed?, rate, kinds? } or false', (value) => value === false || is.object(value)],
  test: ['a boolean', is.boolean],
  testName: ['a string', is.string],
}

/** A lane's own `latency` and `rateLimit`, checked, as options over its proxy's (`false`: none). */
function laneOverrides(owner: string, options: LaneOptions): Pick<FakeProxyOptions, 'latency' | 'rateLimit'> {
  const overrides: Pick<FakeProxyOptions, 'latency' | 'rateLimit'> = {}
  if (options.latency !== undefined) overrides.latency = options.latency === false ? undefined : checkPacing(owner, options.latency)
  if (options.rateLimit !== undefined) overrides.rateLimit = options.rateLimit === false ? undefined : checkRateLimit(owner, options.rateLimit)
  // Checked now, so a bad option fails at lane(), not at the lane's first request.
  if (options.chaos) chaosConfig(`${owner} option chaos`, options.chaos)
  return overrides
}

/** A lane's chaos: its own when it was given one, else its proxy's, keyed by its test's name (SPEC §19). */
function laneChaos(lane: LaneSeed): ChaosState | undefined {
  if (lane.chaos === false) return undefined
  if (lane.chaos) return new ChaosState(chaosConfig(`${OWNER} lane() option chaos`, lane.chaos), lane.testName)
  return lane.parentState.chaos && new ChaosState(lane.parentState.chaos.config, lane.testName)
}

/** Each proxy and lane counts with the same settings and caches prompts in a cache of its own. */
function promptSettings(options: FakeProxyOptions): PromptSettings | undefined {
  const tokens = options.tokens ?? 'tokenizer'
  const cache = options.promptCache ?? true
  if (tokens === 'estimate' && !cache) return undefined
  return { tokens, cache: cache ? new PromptCache() : undefined }
}

/** The WebSocket side of a running server: its hub, and the `upgrade` listener that routes to it. */
interface WebSocketSide {
  hub: WebSocketHub
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void
}

/** Loads the WebSocket side (`ws` and the transports of SPEC §18) for a server's lanes and root. */
async function loadWebSocketSide(lanes: LaneTable, root: ProxyState): Promise<WebSocketSide> {
  const { upgradeHandler, webSocketHub } = await import('./websocket/binding.js')
  const hub = webSocketHub()
  return { hub, handle: upgradeHandler(hub, lanes, root) }
}

function isLLM(value: unknown): value is LLM {
  const llm = value as Partial<LLM> | null
  return typeof llm === 'object' && llm !== null && typeof llm.generate === 'function' && typeof llm.stream === 'function'
}

/** `proxy.providerError` (SPEC §10.2) when this build has it; the control API answers 501 without. */
function providerErrorOf(proxy: FakeProxy): ControlTarget['providerError'] {
  const method = (proxy as unknown as { providerError?: unknown }).providerError
  if (typeof method !== 'function') return undefined
  return (name, options) => void method.call(proxy, name, options)
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
  readonly #options: FakeProxyOptions
  readonly #state: ProxyState
  /** This proxy's lanes (a lane has none: its `lane()` makes a sibling). */
  readonly #lanes: LaneTable
  /** Set on a lane: what it hangs from. */
  readonly #lane: LaneSeed | undefined
  #inProcess: InProcessTransport | undefined
  /** The WebSocket side of the server (SPEC §18), once an upgrade has loaded it. */
  #hub: WebSocketSide | undefined
  /** The WebSocket side being loaded by the first upgrade. */
  #loadingHub: Promise<WebSocketSide> | undefined
  /** Upgrades waiting for the WebSocket side to load: destroyed if the server closes first. */
  readonly #waitingUpgrades = new Set<Duplex>()

  constructor(options: FakeProxyOptions = {}) {
    const lane = laneSeed
    laneSeed = undefined
    // A lane's options are its proxy's, checked when the proxy was made: a test pays no second check.
    if (!lane) FakeProxy.#checkOptions(options)
    this.#options = options
    this.#lane = lane
    this.#lanes = lane?.table ?? new LaneTable()
    this.#llm = options.llm
    let count = 0
    this.#state = {
      lane: lane?.name,
      // A lane shares what its proxy built of the options (its enrolment, its features): a test's
      // lane is made with no second check or copy of them.
      book: lane ? lane.parentState.book.emptyCopy() : new AgentBook(checkAgentNames(OWNER, options.agents)),
      strict: options.strict ?? false,
      features: lane ? lane.parentState.features : new Set(options.features ?? allFeatures),
      brain: () => this.#llm ?? defaultBrain,
      requests: [],
      refusals: [],
      pendingRefusals: [],
      pendingProviderErrors: [],
      faults: new FaultPlan(),
      pendingMisbehaviours: [],
      // A lane takes its proxy's chaos, keyed by its test's name (SPEC §19).
      chaos: lane
        ? laneChaos(lane)
        : options.chaos === undefined
          ? undefined
          : new ChaosState(chaosConfig(`${OWNER} option chaos`, options.chaos), ''),
      pacing: options.latency && paces(options.latency) ? options.latency : undefined,
      rateWindow: options.rateLimit ? new RateWindow(options.rateLimit) : undefined,
      reply: undefined,
      // A lane forwards through its proxy's record mode: one transcript per proxy, in order.
      recordMode: lane
        ? lane.parentState.recordMode
        : options.upstream && options.record
          ? new RecordMode({ upstream: options.upstream, record: options.record })
          : undefined,
      // Seeds of the ids this proxy (or lane) issues: its own request count only, so a test gives
      // the same ids however many proxies or lanes other tests made before it.
      nextId: () => `fake_${(++count).toString().padStart(6, '0')}`,
      validate: options.validate ?? true,
      memory: new ResponseMemory(),
      control: options.controlApi ? this.#controlTarget() : undefined,
      prompt: promptSettings(options),
      maxBodyValues: options.maxBodyValues ?? DEFAULT_MAX_BODY_VALUES,
    }
    registerDouble(this)
  }

  /** The checks `new FakeProxy(options)` makes of its options. */
  static #checkOptions(options: FakeProxyOptions): void {
    checkOptions(OWNER, options, {
      agents: ['an array of agent names', () => true],
      strict: ['a boolean', is.boolean],
      features: [`an array of features (${allFeatures.join(', ')})`, Array.isArray],
      llm: [LLM_EXPECTED, isLLM],
      upstream: ['{ openai?: origin, anthropic?: origin }', () => true],
      record: ['a transcript file path or a writable stream', () => true],
      validate: ['a boolean', is.boolean],
      controlApi: ['a boolean', is.boolean],
      chaos: ['{ seed?, rate, kinds? }', is.object],
      latency: ['{ ttftMs?, tokensPerSecond?, jitter?, seed?, clock? }', is.object],
      rateLimit: ['{ requestsPerMinute?, tokensPerMinute? }', is.object],
      tokens: ["'tokenizer' or 'estimate'", (value) => value === 'tokenizer' || value === 'estimate'],
      promptCache: ['a boolean', is.boolean],
      requestTimeoutMs: ['a positive integer of milliseconds', is.positiveInteger],
      maxBodyValues: ['a positive integer', is.positiveInteger],
    })
    const unknownFeature = options.features?.find((feature) => !allFeatures.includes(feature))
    if (unknownFeature !== undefined) {
      throw new TypeError(`${PREFIX} ${OWNER}: option features has an unknown entry ${describeValue(unknownFeature)}; valid features: ${allFeatures.join(', ')}`)
    }
    validateRecordOptions(OWNER, options.upstream, options.record)
    if (options.latency !== undefined) checkPacing(OWNER, options.latency)
    if (options.rateLimit !== undefined) checkRateLimit(OWNER, options.rateLimit)
  }

  /**
   * A lane of this proxy (SPEC §9): the same server under its own URL prefix
   * (`<url>/~<id>`), with its own brain, records, refusals, plans and definitions, and this
   * proxy's options. Tests that run at once each take one, so none sees another's answers or
   * records; the proxy's own `requests` and `refusals` still see every open lane's (each
   * record names its `lane`). `close()` closes the lane only; so does the end of the test that
   * made it. On a lane, `lane()` makes a sibling.
   * @example
   * test.concurrent('books a flight', async () => {
   *   await using lane = proxy.lane('books a flight')
   *   lane.use(scriptedLLM(['Booked.']))
   *   const client = new OpenAI({ apiKey: 'test', baseURL: `${lane.url}/v1` })
   * })
   * @throws {TypeError} `name` is given and is not a non-empty string.
   * @throws {Error} the proxy is not running (never started, or closed).
   */
  lane(name?: string, options: LaneOptions = {}): ProxyLane {
    if (this.#lane) return this.#lane.parent.lane(name, options)
    if (name !== undefined && (typeof name !== 'string' || name === '')) throw argumentError(`${OWNER} lane()`, 'name', 'a non-empty string', name)
    checkOptions(`${OWNER} lane()`, options, LANE_CHECKS)
    const overrides = laneOverrides(`${OWNER} lane()`, options)
    const overridden = options.latency !== undefined || options.rateLimit !== undefined
    return this.#openLane(name, options.test ?? false, options.testName, options.chaos, overridden ? overrides : undefined, false)
  }

  static {
    openFixtureLane = (proxy, name, testName) => proxy.#openLane(name, true, testName, undefined, undefined, true)
    refuseIdleRoot = (proxy) => proxy.#lanes.refuseIdleRoot()
  }

  /**
   * The options every lane without overrides shares: its proxy's, minus record mode (a lane
   * forwards through its proxy's). Made once, not per lane.
   */
  #laneOptions: FakeProxyOptions | undefined

  /** Makes and opens a lane of this (running) proxy; its options checked by the caller. */
  #openLane(
    name: string | undefined,
    test: boolean,
    testName: string | undefined,
    chaos: ChaosOptions | false | undefined,
    overrides: Pick<FakeProxyOptions, 'latency' | 'rateLimit'> | undefined,
    fixture: boolean,
  ): ProxyLane {
    if (!this.#server) throw new Error(`${PREFIX} ${OWNER} lane(): the proxy is not running (never started, or closed); await proxy.start() first`)
    const id = this.#lanes.nextId()
    const shared = (this.#laneOptions ??= { ...this.#options, upstream: undefined, record: undefined })
    laneSeed = {
      parent: this,
      parentState: this.#state,
      table: this.#lanes,
      options: overrides ? { ...shared, ...overrides } : shared,
      id,
      name: name ?? `lane-${id}`,
      test,
      testName: testName ?? name ?? `lane-${id}`,
      chaos,
      fixture,
    }
    try {
      const lane = new ProxyLane()
      this.#lanes.add({ id, name: lane.name, state: lane.#state, test })
      return lane
    } finally {
      laneSeed = undefined
    }
  }

  /** Serves one request on the lane it names, or answers that it reached none. */
  #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const choice = this.#lanes.choose(req.url ?? '/', this.#state, laneHeaderOf(req))
    if (choice.kind !== 'lane') {
      // Turned away before any lane saw it: recorded on the proxy itself (SPEC §17).
      const answer = answerNoLane(req, res, choice)
      this.#state.requests.push(turnedAwayRecord(req, pathOf(choice.url), answer))
      return Promise.resolve()
    }
    req.url = choice.url
    return handleRequest(req, res, choice.state)
  }

  /**
   * Listens on a free port of 127.0.0.1 (or on `port`, as `agent-doubles serve --port` does).
   * Started again after `close()`, it takes a new port and keeps what it recorded.
   * @example
   * const proxy = await new FakeProxy().start()
   * @throws {Error} it is already running, or `port` is taken, or the runtime has no `node:http` (a browser, an edge runtime: use `proxy.fetch`).
   * @throws {TypeError} `port` is not an integer from 0 to 65535.
   */
  async start(options: StartOptions = {}): Promise<this> {
    checkOptions(OWNER, options, { port: ['an integer from 0 to 65535', isPort] })
    // A lane is served by its proxy's server.
    if (this.#lane) return this
    if (this.#server || this.#starting) throw new Error(`${PREFIX} ${OWNER}: start() called while it is running (at ${this.#server?.url ?? 'a port being opened'}); close() it first`)
    this.#starting = true
    try {
      // Loaded here, not at the top: the server is Node's, and without it (proxy.fetch in a
      // browser or an edge runtime) the proxy must still load.
      const { startServer } = await import('./server.js').catch((cause: unknown) => {
        throw new Error(`${PREFIX} ${OWNER}: start() needs Node's node:http, which this runtime cannot load; serve clients through proxy.fetch instead`, { cause })
      })
      this.#server = await startServer((req, res) => this.#serve(req, res), {
        port: options.port,
        errorBody: serverErrorBody,
        onUpgrade: (req, socket, head) => this.#upgrade(req, socket, head),
        requestTimeoutMs: this.#options.requestTimeoutMs,
      })
    } finally {
      this.#starting = false
    }
    reviveDouble(this)
    return this
  }

  /**
   * Serves an upgrade on the WebSocket side, which the first upgrade loads: `ws` and the three
   * transports cost a process about 115 ms of CPU to load, and most test files never open a
   * WebSocket. An upgrade waiting for the load is dropped if the server closes meanwhile.
   */
  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.#hub) return this.#hub.handle(req, socket, head)
    const server = this.#server
    // Node leaves an upgraded socket without an error listener until its handler adds one.
    const onError = (): void => void socket.destroy()
    socket.on('error', onError)
    this.#waitingUpgrades.add(socket)
    this.#loadingHub ??= loadWebSocketSide(this.#lanes, this.#state)
    this.#loadingHub.then(
      (side) => {
        this.#waitingUpgrades.delete(socket)
        socket.off('error', onError)
        // Closed, or closed and started again, while the side loaded: this upgrade was for that server.
        if (this.#server !== server || socket.destroyed) return void socket.destroy()
        this.#hub ??= side
        side.handle(req, socket, head)
      },
      (error: unknown) => {
        this.#waitingUpgrades.delete(socket)
        socket.destroy(error instanceof Error ? error : undefined)
      },
    )
  }

  /**
   * Stops listening and destroys every open connection, in-flight streams included, and
   * forgets the Responses it remembered (`previous_response_id`); a no-op when not running.
   * @example
   * afterAll(() => proxy.close())
   */
  async close(): Promise<void> {
    if (this.#lane) {
      this.#lanes.remove(this.#lane.id)
      closeSessions(this.#state)
      this.reset()
      this.#llm = undefined
      // A closed lane is done for good: nothing is left to reset after a test.
      unregisterDouble(this)
      return
    }
    const server = this.#server
    this.#server = undefined
    if (server) releaseDouble(this)
    // Every lane closes with its server: a late request to one is answered 404 by no one.
    for (const entry of [...this.#lanes.entries()]) {
      this.#lanes.remove(entry.id)
      closeSessions(entry.state)
    }
    closeSessions(this.#state)
    for (const socket of this.#waitingUpgrades) socket.destroy()
    this.#waitingUpgrades.clear()
    this.#hub?.hub.close()
    this.#hub = undefined
    this.#loadingHub = undefined
    this.#inProcess?.close()
    await server?.close()
    this.#state.memory.clear()
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
   * Clears records (the brain's too, via its `clearRecords()`), pending refusals and provider
   * errors, planned faults, the `reply()` override and remembered Responses
   * (`previous_response_id`), and forgets definitions; keeps running on the same port. The setup
   * entries call it after each test. On a proxy it leaves its lanes alone; each lane resets on its own.
   * @example
   * afterEach(() => proxy.reset())
   */
  reset(): void {
    const state = this.#state
    state.requests.length = 0
    state.refusals.length = 0
    state.pendingRefusals.length = 0
    state.pendingProviderErrors.length = 0
    state.faults.clear()
    state.pendingMisbehaviours.length = 0
    // Chaos stays on; its count starts again, as for a new test.
    state.chaos?.restart()
    state.rateWindow?.clear()
    state.reply = undefined
    state.memory.clear()
    state.book.reset()
    state.prompt?.cache?.clear()
    resetSessions(state)
    // The brain's records of these requests go too (its place in its script stays).
    this.#llm?.clearRecords?.()
  }

  /** What the control API acts on: this proxy's records and plans, and its brain. */
  #controlTarget(): ControlTarget {
    // The brain the last `PUT /_agent-doubles/script` loaded: replaced, it leaves the registry
    // too, so 1,000 scripts loaded one after another hold one script's memory, not 1,000 (SPEC §24).
    let loaded: LLM | undefined
    return {
      requests: () => this.#state.requests,
      refusals: () => this.#state.refusals,
      reset: () => {
        this.reset()
        // A suite driving a served proxy resets between its tests: the script starts over too.
        const brain = this.#llm as (LLM & { reset?: () => void }) | undefined
        brain?.reset?.()
      },
      use: (llm) => {
        this.use(llm)
        if (loaded && loaded !== llm) unregisterDouble(loaded as unknown as Parameters<typeof unregisterDouble>[0])
        loaded = llm
      },
      refuse: (code, options) => void this.refuse(code as RefusalCode, options),
      providerError: providerErrorOf(this),
      misbehave: (kind, options) => void this.misbehave(kind as MisbehaviourKind, options),
      chaos: (options) => void this.chaos(options as ChaosOptions | false),
    }
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
    const lane = this.#lane
    if (lane) {
      if (!lane.table.isOpen(lane.id)) throw new Error(`${PREFIX} ${OWNER} lane "${lane.name}": url read after the lane was closed`)
      return `${lane.parent.url}/~${lane.id}`
    }
    if (!this.#server) throw new Error(`${PREFIX} ${OWNER}: url read while it is not running; await proxy.start() first`)
    return this.#server.url
  }

  /**
   * The environment variables that point every supported client at this proxy or lane, with
   * placeholder keys (SPEC §17): `OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`, `GOOGLE_GEMINI_BASE_URL`,
   * `OLLAMA_HOST`, `AZURE_OPENAI_ENDPOINT`, `AWS_ENDPOINT_URL_BEDROCK_RUNTIME`, their keys and
   * the rest the clients of SPEC §12 read. For runtimes in a process of their own.
   * @example
   * spawn('gemini', ['-p', 'hello'], { env: { ...process.env, ...fakeProxy.env } })
   * @throws {Error} the proxy is not running, or the lane is closed.
   */
  get env(): Record<string, string> {
    return clientEnv(this.url)
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
    this.#inProcess ??= inProcessTransport(
      (req, res) => handleRequest(req, res, this.#state),
      (res, error) => answerCrash(res.req ?? IN_PROCESS_REQUEST, res, error, serverErrorBody),
    )
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
    return this.#everyLane((state) => state.requests).map(copy)
  }

  /**
   * Every refusal, oldest first (copies).
   * @example
   * expect(proxy.refusals.map((r) => r.code)).toEqual(['rate_limited'])
   */
  get refusals(): Refusal[] {
    return this.#everyLane((state) => state.refusals).map(copy)
  }

  /**
   * Every WebSocket session (SPEC §18) since the last reset, oldest first (copies): the API it
   * spoke, its model, whether it is still open, and the client's raw events in order. Each model
   * response a session produced is also in {@link FakeProxy.requests}, like any HTTP request.
   * A proxy lists its own and its open lanes'.
   * @example
   * expect(proxy.sessions[0].events.map((event) => event.type)).toContain('response.create')
   */
  get sessions(): WebSocketSession[] {
    if (this.#lane) return sessionsOf([this.#state])
    return sessionsOf([this.#state, ...[...this.#lanes.entries()].map((entry) => entry.state)])
  }

  /**
   * What the test tells the realtime transports (OpenAI Realtime, Gemini Live) about the audio
   * its client sends: `hear(text)` gives the next input audio turn its transcript, which scripts
   * match as they match text.
   * @example
   * proxy.realtime.hear('what is the weather in Paris')
   * proxy.use(scriptedLLM({ weather: 'Sunny.' }))
   */
  get realtime(): ProxyRealtime {
    return realtimeOf(this.#state, this.#lane ? `${OWNER} lane "${this.#lane.name}"` : OWNER)
  }

  /** A lane's own records; a proxy's own followed by each open lane's, oldest lane first. */
  #everyLane<T>(records: (state: ProxyState) => readonly T[]): T[] {
    const own = records(this.#state)
    if (this.#lane) return [...own]
    const all = [...own]
    for (const entry of this.#lanes.entries()) all.push(...records(entry.state))
    return all
  }

  /**
   * The tokens and cost of every answered model request (SPEC §20) — input, cache reads, cache
   * writes, output, and the cost at the model's price (`configure({ prices })`, else the
   * built-in table) — per request and in total. A proxy's covers its open lanes' too.
   * @example
   * const { total } = proxy.usage()
   * expect(total.cacheReadTokens).toBeGreaterThan(0)
   */
  usage(): ProxyUsage {
    return usageReport(this.#everyLane((state) => state.requests))
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
   * Answers the next model requests with provider error `name`, as the real provider sends it
   * on the request's wire: status, body and retry headers, so each SDK throws and retries as it
   * does against the real API (SPEC §10.2). Each answer is recorded in `requests` with `status`
   * and `error`. `timeout` answers nothing until the client gives up (`close()` still ends it).
   * @example
   * proxy.providerError('rate_limit', { times: 2 }) // two 429s, then the brain answers
   * @throws {TypeError} `name` is unknown (the message lists the valid ones) or an option is bad.
   */
  providerError(name: ProviderErrorName, options: ProviderErrorPlanOptions = {}): this {
    checkProviderError(`${OWNER} providerError()`, name, options, true)
    const { times = 1, message, retryAfterS } = options
    this.#state.pendingProviderErrors.push({ name, remaining: times, message, retryAfterS })
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
   * closing (`stall`; `close()` still ends it). On a Realtime or Gemini Live session the next
   * model turn breaks the same way after `afterChunks` of the brain's events.
   * @example
   * proxy.fail({ kind: 'disconnect', afterChunks: 2 })
   * @throws {TypeError} the options are malformed.
   */
  fail(options: FailOptions): this {
    this.#state.faults.add(options)
    return this
  }

  /**
   * Makes the next model requests misbehave as a model does on a bad day (SPEC §19), rendered on
   * each wire as its provider sends that case: arguments that are not JSON, arguments that break
   * the schema, a tool never offered, duplicate call ids, an answer cut short, an empty answer, a
   * refusal, a filtered finish, reasoning with no answer, text that ignores the format. The brain
   * is not asked, so its script does not move; each record carries `fault`.
   * @example
   * proxy.misbehave('invalid_tool_args', { times: 2 }) // two broken calls, then the brain answers
   * @throws {TypeError} `kind` is unknown (the message lists the valid ones) or an option is bad.
   */
  misbehave(kind: MisbehaviourKind, options: MisbehavePlanOptions = {}): this {
    const owner = `${OWNER} misbehave()`
    checkMisbehave(owner, kind, options, { times: ['an integer of at least 1', is.positiveInteger] })
    const { times = 1, ...rest } = options
    this.#state.pendingMisbehaviours.push({ misbehaviour: misbehave(kind, rest), remaining: times })
    return this
  }

  /**
   * Seeded chaos (SPEC §19): each model request from now on gets, with probability `rate`, one of
   * `kinds` — a misbehaviour, a provider error or a transport fault — decided by the seed, the
   * test's full name and the request's number in its lane, so the same seed gives the same
   * faults whatever the order or concurrency. Records carry `fault`; `false` turns it off.
   * On a proxy it applies to lanes made afterwards too.
   * @example
   * proxy.chaos({ seed: 42, rate: 0.3, kinds: ['invalid_tool_args', 'rate_limit', 'disconnect'] })
   * @throws {TypeError} naming the option and the accepted values: an unknown kind, a rate outside [0, 1], a seed that is not an integer.
   */
  chaos(options: ChaosOptions | false): this {
    if (options === false) {
      this.#state.chaos = undefined
      return this
    }
    const key = this.#lane?.testName ?? this.#state.chaos?.key ?? ''
    this.#state.chaos = new ChaosState(chaosConfig(`${OWNER} chaos()`, options), key)
    return this
  }

  /**
   * Names the test the proxy serves now, the key of its chaos decisions, and starts counting
   * its requests again (the Jest helper calls it before each test).
   * @internal
   */
  enterTest(fullName: string): void {
    this.#state.chaos?.restart(fullName)
  }
}

/**
 * A lane of a {@link FakeProxy} (SPEC §9), made by `proxy.lane(name?)`: a `FakeProxy` in every
 * respect — `use`, `requests`, `refusals`, `definitions`, `refuse`, `reply`, `fail`, `reset` —
 * served by its proxy's server under `url` (`<proxy.url>/~<id>`). `start()` is a no-op;
 * `close()` closes the lane only, after which its URL answers 404 naming it.
 * @example
 * await using lane = proxy.lane('checkout')
 * lane.use(scriptedLLM(['Paid.']))
 * expect(lane).toHaveReceivedRequests(1)
 */
export class ProxyLane extends FakeProxy {
  readonly [LANE] = true
  /** The lane's name: the one given to `lane()`, else `lane-<id>`; records carry it as `lane`. */
  readonly name: string
  /** The id in the lane's URL prefix (`/~<id>`), unique within its proxy. */
  readonly id: string
  readonly #fixture: boolean

  /** Whether a fixture made the lane for its test (snapshots leave its name out). @internal */
  get [TEST_LANE](): boolean {
    return this.#fixture
  }

  /** `instanceof` by brand, so it holds across copies of the package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [LANE]?: boolean })[LANE] === true
  }

  /** @internal Lanes are made by {@link FakeProxy.lane}. */
  constructor() {
    const seed = laneSeed
    if (!seed) throw new TypeError(`${PREFIX} ProxyLane: lanes are made by proxy.lane(name?), not constructed`)
    super(seed.options)
    this.name = seed.name
    this.id = seed.id
    this.#fixture = seed.fixture ?? false
  }
}

/**
 * Makes `proxy` the fixtures' file server: a request that names no lane while none of its tests
 * runs is refused (409), not answered by the proxy itself. @internal
 */
export function serveTestsOnly(proxy: FakeProxy): void {
  refuseIdleRoot(proxy)
}

/**
 * The lane the fixtures open for each test (`proxy.lane(name, { test: true, testName })`),
 * without a second check of options the proxy already checked, marked as the test's own for
 * snapshots. @internal
 */
export function openTestLane(proxy: FakeProxy, name: string, testName: string): ProxyLane {
  return openFixtureLane(proxy, name, testName)
}
