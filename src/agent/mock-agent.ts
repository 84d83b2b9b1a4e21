/**
 * `MockAgent`: a whole agent stood in by canned responses (SPEC §3). The instance is a function,
 * so it can be called like an agent and passed to the runners' own spy matchers.
 * @module
 */

import { PREFIX, argumentError, checkOptions, describeValue, is } from '../internal/describe.js'
import { KIND } from '../kinds.js'
import { registerDouble } from '../registry.js'
import { Envelope, ZERO_METADATA, trustedEnvelope } from './envelope.js'
import { type EnvelopeDefaults, type ResolveState, resolveNow, resolveResponse, valueToEnvelope } from './resolve.js'
import { type StandardSchemaV1, formatIssues, isStandardSchema, validateWithSchema } from './standard-schema.js'
import { type Override, type Spy, type SpyState, createSpy } from './spy-state.js'

export type { MockResult, MockSettledResult, SpyState } from './spy-state.js'

/** Options of {@link MockAgent}; every one is optional. */
export interface MockAgentOptions<T = unknown> {
  /** The agent's name, used in errors, tools and spy-matcher messages. @default 'mock_agent' */
  name?: string
  /** What the agent does, for `asTool()` and `definition()`. @default undefined */
  description?: string
  /** A Standard Schema (zod, valibot, …) every payload must match; a mismatch rejects the call. @default undefined */
  output?: StandardSchemaV1<unknown, T>
  /** Whether a list of responses wraps around when it runs out. @default false */
  cycle?: boolean
  /** Milliseconds to wait before answering (counts toward measured latency). @default 0 */
  delayMs?: number
  /** `metadata.inputTokens` of every payload envelope. @default 10 */
  inputTokens?: number
  /** `metadata.outputTokens` of every payload envelope. @default 20 */
  outputTokens?: number
  /** `metadata.costUsd` of every payload envelope. @default 0 */
  costUsd?: number
  /** `metadata.latencyMs` of every envelope the mock builds. @default the measured time of the call */
  latencyMs?: number
  /** `metadata.model`. @default 'mock' */
  model?: string
  /** `metadata.provider`. @default 'mock' */
  provider?: string
}

/** One recorded invocation, including those that threw. */
export interface MockCall<T = unknown> {
  /** The task of the input envelope. */
  readonly task: string | undefined
  /** The context of the input envelope. */
  readonly context: string | undefined
  /** The envelope the call ran with (a string task becomes `Envelope.fromTask(task)`). */
  readonly input: Envelope
  /** The envelope returned, once the call fulfilled. */
  readonly output?: Envelope<T>
  /** What the call rejected with, once it rejected. */
  readonly error?: unknown
  /** Milliseconds from invocation to settling; 0 while the call is still running. */
  readonly elapsedMs: number
}

/** The JSON Schema of a MockAgent tool's arguments: `{ task: string }`. */
export interface TaskParameters {
  type: 'object'
  properties: { task: { type: 'string'; description: string } }
  required: ['task']
  additionalProperties: false
}

/** A tool's name, description and argument schema, as `definition()` gives them. */
export interface AgentToolDefinition {
  name: string
  description: string
  parameters: TaskParameters
}

/** A MockAgent wrapped as a tool an orchestrating agent can call. */
export interface AgentTool<T = unknown> extends AgentToolDefinition {
  /** Runs the agent on `task` and returns its envelope. */
  execute(args: { task: string }): Promise<Envelope<T>>
}

interface Internals {
  readonly owner: string
  readonly responses: unknown
  readonly resolve: ResolveState
  readonly defaults: EnvelopeDefaults
  readonly delayMs: number
  readonly output: StandardSchemaV1 | undefined
  /** Whether a call without an override can be answered at once (no function, delay or schema). */
  readonly immediate: boolean
  readonly spy: Spy
}

/**
 * Where an agent keeps its internals: a property of its own (not enumerable, keyed by this
 * module's symbol), not a WeakMap. In a WeakMap whose value leads back to its key (the spy holds
 * the agent), Node 20's minor GCs keep both alive: every MockAgent a test made, calls and all,
 * outlived it until the next full GC.
 */
const INTERNALS = Symbol('agent-doubles.mock-agent-internals')

/** Errors name an unnamed agent as its spy-matcher messages do. */
const UNNAMED_OWNER = `MockAgent ${JSON.stringify('mock_agent')}`

/** Every envelope's metadata when no option says otherwise. */
const DEFAULTS: EnvelopeDefaults = { inputTokens: 10, outputTokens: 20, costUsd: 0, latencyMs: undefined, model: 'mock', provider: 'mock' }

const string: [string, (v: unknown) => boolean] = ['a string', is.string]
const count: [string, (v: unknown) => boolean] = ['a non-negative integer', (v) => Number.isInteger(v) && (v as number) >= 0]
const amount: [string, (v: unknown) => boolean] = ['a non-negative number', is.nonNegativeNumber]
const optionChecks: Record<keyof MockAgentOptions, [string, (v: unknown) => boolean]> = {
  name: ['a non-empty string', (v) => typeof v === 'string' && v.length > 0],
  description: string,
  output: ['a Standard Schema (e.g. a zod schema)', isStandardSchema],
  cycle: ['a boolean', is.boolean],
  delayMs: amount,
  inputTokens: count,
  outputTokens: count,
  costUsd: amount,
  latencyMs: amount,
  model: string,
  provider: string,
}

/** The call signature merged into the class, so runners' typed spy matchers see `(task)`. */
export interface MockAgent<T = unknown> {
  /** Runs the agent; the same as {@link MockAgent.run}. */
  (task: string | Envelope): Promise<Envelope<T>>
}

/**
 * A deterministic stand-in for an agent: task in, `Envelope` out. Responses are a function, a
 * map of task substrings (`'*'` catches the rest), a list (one per call) or a single value.
 * A plain object is always read as a map: to answer every call with an object payload, write
 * `{ '*': payload }` or `() => payload`.
 * @example
 * const researcher = new MockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher' })
 * ;(await researcher('weather today')).text() // 'sunny'
 * @throws {TypeError} when `responses` is undefined, or an option is unknown or of the wrong type.
 */
export class MockAgent<T = unknown> {
  /** The `name` option. */
  declare readonly name: string
  /** The `description` option. */
  declare readonly description: string | undefined
  /** Every invocation so far, in call order, including those that threw. */
  declare readonly calls: MockCall<T>[]
  /** Spy state in the shape Vitest's and Jest's `toHaveBeenCalled*` / `toHaveReturned*` matchers read. */
  declare readonly mock: SpyState
  /** Marks the instance as a mock function for the runners' spy matchers. */
  declare readonly _isMockFunction: true
  /** Cross-copy brand. @internal */
  declare readonly [KIND]: 'MockAgent'

  constructor(responses: unknown, options?: MockAgentOptions<T>) {
    // Errors name the agent — 'mock_agent' when unnamed, as its spy-matcher messages do — unless the name itself is the problem.
    const rawName = is.object(options) ? (options as MockAgentOptions).name : undefined
    const nameable = options === undefined || is.object(options)
    const owner = nameable && (rawName === undefined || (typeof rawName === 'string' && rawName))
      ? rawName === undefined ? UNNAMED_OWNER : `MockAgent ${JSON.stringify(rawName)}`
      : 'MockAgent'
    checkOptions(owner, options, optionChecks)
    if (responses === undefined) {
      throw argumentError(owner, 'responses', 'a function, a map of task substrings, an array or a value', responses)
    }
    const opts: MockAgentOptions<T> = options ?? {}

    const calls: MockCall<T>[] = []
    // The spy records each call, then runs this body with the call's `this` and arguments.
    const spy = createSpy(opts.name ?? 'mock_agent', function (this: unknown, args: unknown[]) {
      return invoke(agent, this, args)
    }, () => calls)
    const agent = spy.fn as unknown as MockAgent<T>
    Object.setPrototypeOf(agent, new.target.prototype)
    const delayMs = opts.delayMs ?? 0
    const internal: Internals = {
      owner,
      responses,
      resolve: { owner, cycle: opts.cycle ?? false, cursor: 0 },
      // Read-only, so agents made without envelope options share one.
      defaults: options === undefined ? DEFAULTS : {
        inputTokens: opts.inputTokens ?? DEFAULTS.inputTokens,
        outputTokens: opts.outputTokens ?? DEFAULTS.outputTokens,
        costUsd: opts.costUsd ?? DEFAULTS.costUsd,
        latencyMs: opts.latencyMs,
        model: opts.model ?? DEFAULTS.model,
        provider: opts.provider ?? DEFAULTS.provider,
      },
      delayMs,
      output: opts.output,
      immediate: typeof responses !== 'function' && delayMs === 0 && opts.output === undefined,
      spy,
    }
    // One definition for all of them. The brand and `_isMockFunction` are the prototype's (below).
    // `agent.run` is the agent itself, so `vi.spyOn(agent, 'run')` and `jest.spyOn(agent, 'run')`
    // (which return a mock they are given as it is) hand back the agent with its spy methods,
    // and `mockResolvedValueOnce` on that is recorded like any call. A subclass's own `run` stays.
    const ownRun = new.target.prototype.run === MockAgent.prototype.run
    Object.defineProperties(agent, {
      description: { value: opts.description, enumerable: true },
      calls: { value: calls, enumerable: true },
      mock: { value: spy.mock, enumerable: true },
      ...(ownRun && { run: { value: agent, writable: true, configurable: true } }),
      [INTERNALS]: { value: internal },
    })
    registerDouble(agent)
    return agent
  }

  /**
   * Runs the agent on a task string or an envelope.
   * @example
   * const env = await agent.run('weather today')
   */
  run(task: string | Envelope): Promise<Envelope<T>> {
    // Reached only from a subclass that overrides run() (otherwise `run` is the agent itself).
    return Reflect.apply(this as unknown as (task: string | Envelope) => Promise<Envelope<T>>, this, [task])
  }

  /**
   * The final text as an async iterable of one chunk, for code that consumes a stream.
   * @example
   * for await (const chunk of agent.stream('hi')) console.log(chunk)
   */
  async *stream(task: string | Envelope): AsyncGenerator<string, void, undefined> {
    const env = await this.run(task)
    yield env.text()
  }

  /**
   * The agent as a tool `{ name, description, parameters, execute }` taking `{ task: string }`.
   * @example
   * const tool = researcher.asTool({ description: 'Looks things up' })
   */
  asTool(options?: { name?: string; description?: string }): AgentTool<T> {
    const { owner } = state(this)
    checkOptions(`${owner} asTool()`, options, { name: optionChecks.name, description: string })
    const definition = toolDefinition(this, options?.name, options?.description)
    const run = (task: string | Envelope) => this.run(task)
    return {
      ...definition,
      async execute(args: { task: string }): Promise<Envelope<T>> {
        if (!is.object(args)) throw argumentError(`${owner} tool`, 'arguments', 'an object { task: string }', args)
        return run(args.task)
      },
    }
  }

  /**
   * The tool definition `{ name, description, parameters }` of {@link MockAgent.asTool}.
   * @example
   * agent.definition().parameters.required // ['task']
   */
  definition(): AgentToolDefinition {
    return toolDefinition(this, undefined, undefined)
  }

  /** How many times the agent was invoked. */
  get callCount(): number {
    return this.calls.length
  }

  /** The latest invocation, or `undefined` before the first. */
  get lastCall(): MockCall<T> | undefined {
    return this.calls.at(-1)
  }

  /**
   * Throws unless some call's task equals `task` or contains `contains`; with neither it always throws.
   * @example
   * researcher.assertCalledWith(undefined, { contains: 'weather' })
   */
  assertCalledWith(task?: string, options?: { contains?: string }): void {
    const { owner } = state(this)
    if (task !== undefined && typeof task !== 'string') throw argumentError(owner, 'assertCalledWith task', 'a string', task)
    checkOptions(`${owner} assertCalledWith()`, options, { contains: string })
    const contains = options?.contains
    const matched = this.calls.some(
      (call) => (task !== undefined && call.task === task) || (contains !== undefined && (call.task ?? '').includes(contains)),
    )
    if (matched) return
    const wanted = task === undefined && contains === undefined
      ? 'assertCalledWith() needs a task or { contains }'
      : `no call matched${task === undefined ? '' : ` task ${describeValue(task)}`}` +
        `${contains === undefined ? '' : ` contains ${describeValue(contains)}`}`
    throw assertionError(`${owner}: ${wanted}. Recorded tasks: ${recordedTasks(this.calls)}`)
  }

  /**
   * Throws unless the agent was invoked exactly `n` times.
   * @example
   * writer.assertCallCount(0)
   */
  assertCallCount(n: number): void {
    const { owner } = state(this)
    if (!Number.isInteger(n) || n < 0) throw argumentError(owner, 'assertCallCount n', 'a non-negative integer', n)
    if (this.calls.length === n) return
    throw assertionError(
      `${owner}: expected ${n} ${n === 1 ? 'call' : 'calls'}, got ${this.calls.length}. ` +
        `Recorded tasks: ${recordedTasks(this.calls)}`,
    )
  }

  /**
   * Clears recorded calls and spy state, rewinds the list cursor and drops every override
   * (`mockImplementation`, `mockResolvedValueOnce`, …); the registry calls it after each test.
   * @example
   * agent.reset()
   */
  reset(): void {
    clear(this, true)
  }

  /** The agent's name, as the runners' spy matchers print it. */
  getMockName(): string {
    return this.name
  }

  /**
   * Clears recorded calls and spy state and rewinds the list cursor; planned overrides stay,
   * as `mockClear()` keeps a `vi.fn`'s implementations.
   * @example
   * agent.mockClear()
   */
  mockClear(): this {
    clear(this, false)
    return this
  }

  /**
   * The same as {@link MockAgent.reset}: back to the responses it was made with.
   * @example
   * agent.mockReset()
   */
  mockReset(): this {
    clear(this, true)
    return this
  }

  /**
   * The same as {@link MockAgent.reset}; there is no replaced method to put back, so
   * `vi.spyOn(agent, 'run')` followed by `mockRestore()` leaves the responses answering.
   * @example
   * vi.spyOn(agent, 'run').mockRestore()
   */
  mockRestore(): void {
    clear(this, true)
  }

  /**
   * Answers every call with `fn(...args)` (called with the call's `this` and arguments) instead
   * of the responses, until `reset()`. Its result is a value as responses give one: an
   * `Envelope` verbatim, an `ErrorInfo` an error envelope, an `Error` rejects, anything else the
   * payload; a promise is awaited. The call is recorded like any call.
   * @example
   * agent.mockImplementation((task) => `stubbed: ${task}`)
   * @throws {TypeError} `fn` is not a function.
   */
  mockImplementation(fn: (...args: any[]) => unknown): this {
    plan(this, 'mockImplementation', fn, false)
    return this
  }

  /**
   * {@link MockAgent.mockImplementation} for the next call only; one-offs queue in order and win
   * over `mockImplementation`.
   * @example
   * agent.mockImplementationOnce(() => new ErrorInfo({ type: 'Timeout', message: 'slow' }))
   * @throws {TypeError} `fn` is not a function.
   */
  mockImplementationOnce(fn: (...args: any[]) => unknown): this {
    plan(this, 'mockImplementationOnce', fn, true)
    return this
  }

  /**
   * Every call resolves with `value` as an envelope (an `Envelope` verbatim, anything else the payload).
   * @example
   * agent.mockReturnValue('always this')
   */
  mockReturnValue(value: unknown): this {
    return this.mockImplementation(() => value)
  }

  /**
   * The next call resolves with `value` as an envelope.
   * @example
   * agent.mockReturnValueOnce(new Envelope({ payload: 'once' }))
   */
  mockReturnValueOnce(value: unknown): this {
    return this.mockImplementationOnce(() => value)
  }

  /**
   * Every call resolves with `value` as an envelope; the same as `mockReturnValue` for an agent,
   * whose calls always return a promise.
   * @example
   * agent.mockResolvedValue({ answer: 42 })
   */
  mockResolvedValue(value: unknown): this {
    return this.mockImplementation(() => value)
  }

  /**
   * The next call resolves with `value` as an envelope.
   * @example
   * vi.spyOn(agent, 'run').mockResolvedValueOnce('a one-off answer')
   */
  mockResolvedValueOnce(value: unknown): this {
    return this.mockImplementationOnce(() => value)
  }

  /**
   * Every call rejects with `error` (recorded as the call's `error`).
   * @example
   * agent.mockRejectedValue(new Error('down'))
   */
  mockRejectedValue(error: unknown): this {
    return this.mockImplementation(() => Promise.reject(error))
  }

  /**
   * The next call rejects with `error`.
   * @example
   * agent.mockRejectedValueOnce(new Error('flaky'))
   */
  mockRejectedValueOnce(error: unknown): this {
    return this.mockImplementationOnce(() => Promise.reject(error))
  }

  /**
   * The function set by `mockImplementation`, or `undefined` when the responses answer.
   * @example
   * agent.getMockImplementation() // undefined
   */
  getMockImplementation(): ((...args: any[]) => unknown) | undefined {
    return state(this).spy.implementation() as ((...args: any[]) => unknown) | undefined
  }

  /** Recognises MockAgents made by either module copy of this package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the ordinary prototype check; only MockAgent itself trusts the brand.
    if (this !== MockAgent) return Function.prototype[Symbol.hasInstance].call(this, value)
    return (typeof value === 'function' || typeof value === 'object') && value !== null &&
      (value as { [KIND]?: unknown })[KIND] === 'MockAgent'
  }

}

// Instances are functions: keep call/apply/bind and `instanceof Function` working.
Object.setPrototypeOf(MockAgent.prototype, Function.prototype)
// What every agent carries, inherited: the cross-copy brand, and the mark the runners' spy
// matchers look for (`'_isMockFunction' in fn && fn._isMockFunction === true`).
Object.defineProperty(MockAgent.prototype, KIND, { value: 'MockAgent' })
Object.defineProperty(MockAgent.prototype, '_isMockFunction', { value: true, configurable: true, writable: true })
Object.defineProperty(MockAgent.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: MockAgent) {
    return `MockAgent ${JSON.stringify(this.name)} (${this.calls.length} ${this.calls.length === 1 ? 'call' : 'calls'})`
  },
})

/**
 * Creates a {@link MockAgent}; the same as `new MockAgent(responses, options)`.
 * @example
 * const writer = mockAgent((env) => `Report: ${env.text()}`, { name: 'writer' })
 * @throws {TypeError} when `responses` is undefined, or an option is unknown or of the wrong type.
 */
export function mockAgent<T = unknown>(responses: unknown, options?: MockAgentOptions<T>): MockAgent<T> {
  return new MockAgent<T>(responses, options)
}

type WritableCall<T> = { -readonly [K in keyof MockCall<T>]: MockCall<T>[K] }

function state(agent: object): Internals {
  const found = (agent as { [INTERNALS]?: Internals } | null | undefined)?.[INTERNALS]
  if (!found) throw new TypeError(`${PREFIX} MockAgent method called on ${describeValue(agent)}, not a MockAgent`)
  return found
}

function clear(agent: MockAgent<unknown>, overrides: boolean): void {
  const internal = state(agent)
  agent.calls.length = 0
  internal.spy.clear(overrides)
  internal.resolve.cursor = 0
}

function plan(agent: MockAgent<unknown>, method: string, fn: unknown, once: boolean): void {
  const internal = state(agent)
  if (typeof fn !== 'function') throw argumentError(`${internal.owner} ${method}()`, 'the implementation', 'a function', fn)
  internal.spy.plan(fn as Override, once)
}

/**
 * One invocation, which the spy has just recorded: records it as a MockCall and answers it —
 * at once when nothing needs awaiting, which spares a call its extra promises.
 */
function invoke<T>(agent: MockAgent<T>, thisArg: unknown, args: unknown[]): Promise<Envelope<T>> {
  const internal = state(agent)
  const started = performance.now()
  internal.spy.begin(thisArg)
  const task = args[0]
  const input = typeof task === 'string' ? trustedEnvelope(task, undefined, task, ZERO_METADATA, undefined) : task instanceof Envelope ? task : undefined
  if (!input) {
    const error = argumentError(internal.owner, 'task', 'a string or an Envelope', task)
    agent.calls.push({ task: undefined, context: undefined, input: new Envelope(), error, elapsedMs: performance.now() - started })
    return Promise.reject(error)
  }

  const override = internal.spy.takeOverride()
  if (override === undefined && internal.immediate) {
    // Nothing to await and no user code runs: the call is recorded once, already settled.
    let env: Envelope<T>
    let elapsedMs = 0
    try {
      const value = resolveNow(internal.responses, input, internal.resolve)
      elapsedMs = performance.now() - started
      env = valueToEnvelope(value, input, internal.defaults, elapsedMs) as Envelope<T>
    } catch (error) {
      agent.calls.push({ task: input.task, context: input.context, input, error, elapsedMs: performance.now() - started })
      return Promise.reject(error)
    }
    agent.calls.push({ task: input.task, context: input.context, input, output: env, elapsedMs })
    return Promise.resolve(env)
  }
  const call: WritableCall<T> = { task: input.task, context: input.context, input, elapsedMs: 0 }
  agent.calls.push(call)
  const produce = override ? () => override.apply(thisArg, args) : () => resolveResponse(internal.responses, input, internal.resolve)
  return execute<T>(internal, input, started, produce, call)
}

async function execute<T>(internal: Internals, input: Envelope, started: number, produce: () => unknown, call: WritableCall<T>): Promise<Envelope<T>> {
  try {
    if (internal.delayMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, internal.delayMs))
    const value = await produce()
    const env = valueToEnvelope(value, input, internal.defaults, performance.now() - started)
    if (internal.output && env.ok) {
      const result = await validateWithSchema(internal.output, env.payload)
      if (result.issues) {
        const error = new Error(
          `${PREFIX} ${internal.owner}: the payload for task ${describeValue(input.task)} does not match ` +
            `the output schema: ${formatIssues(result.issues)}`,
        )
        throw Object.assign(error, { issues: result.issues })
      }
    }
    call.output = env as Envelope<T>
    call.elapsedMs = performance.now() - started
    return env as Envelope<T>
  } catch (error) {
    call.error = error
    call.elapsedMs = performance.now() - started
    throw error
  }
}

function toolDefinition(agent: MockAgent<unknown>, name: string | undefined, description: string | undefined): AgentToolDefinition {
  const toolName = name ?? agent.name
  return {
    name: toolName,
    description: description ?? agent.description ?? `Run the ${toolName} mock agent.`,
    parameters: {
      type: 'object',
      properties: { task: { type: 'string', description: 'The task for the agent.' } },
      required: ['task'],
      additionalProperties: false,
    },
  }
}

function assertionError(message: string): Error {
  const error = new Error(`${PREFIX} ${message}`)
  error.name = 'AssertionError'
  return error
}

function recordedTasks(calls: readonly MockCall<unknown>[]): string {
  return calls.length === 0 ? '(none)' : `[${calls.map((call) => describeValue(call.task)).join(', ')}]`
}
