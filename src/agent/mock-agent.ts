/**
 * `MockAgent`: a whole agent stood in by canned responses (SPEC §3). The instance is a function,
 * so it can be called like an agent and passed to the runners' own spy matchers.
 * @module
 */

import { PREFIX, argumentError, checkOptions, describeValue, is } from '../internal/describe.js'
import { KIND } from '../kinds.js'
import { registerDouble } from '../registry.js'
import { Envelope } from './envelope.js'
import { type EnvelopeDefaults, type ResolveState, resolveResponse, valueToEnvelope } from './resolve.js'
import { type StandardSchemaV1, formatIssues, isStandardSchema, validateWithSchema } from './standard-schema.js'
import { type SpyState, clearSpyState, createSpyState, recordInvocation } from './spy-state.js'

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
}

const internals = new WeakMap<object, Internals>()

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
    const rawName = (options as MockAgentOptions | undefined)?.name
    const owner = typeof rawName === 'string' && rawName ? `MockAgent ${JSON.stringify(rawName)}` : 'MockAgent'
    checkOptions(owner, options, optionChecks)
    if (responses === undefined) {
      throw argumentError(owner, 'responses', 'a function, a map of task substrings, an array or a value', responses)
    }
    const opts: MockAgentOptions<T> = options ?? {}

    // A method is callable with a `this` (recorded in mock.contexts) but has no own `prototype`.
    const agent = {
      agent(this: unknown, ...args: unknown[]): Promise<Envelope<T>> {
        return invoke(agent, this, args)
      },
    }.agent as unknown as MockAgent<T>
    Object.setPrototypeOf(agent, new.target.prototype)
    // A function's own `name` is read-only; only defineProperty can replace it.
    Object.defineProperty(agent, 'name', { value: opts.name ?? 'mock_agent', configurable: true })
    Object.defineProperties(agent, {
      description: { value: opts.description, enumerable: true },
      calls: { value: [], enumerable: true },
      mock: { value: createSpyState(), enumerable: true },
      _isMockFunction: { value: true },
      [KIND]: { value: 'MockAgent' },
    })
    internals.set(agent, {
      owner,
      responses,
      resolve: { owner, cycle: opts.cycle ?? false, cursor: 0 },
      defaults: {
        inputTokens: opts.inputTokens ?? 10,
        outputTokens: opts.outputTokens ?? 20,
        costUsd: opts.costUsd ?? 0,
        latencyMs: opts.latencyMs,
        model: opts.model ?? 'mock',
        provider: opts.provider ?? 'mock',
      },
      delayMs: opts.delayMs ?? 0,
      output: opts.output,
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
    return invoke(this, this, [task])
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

  /** Clears recorded calls (and spy state) and rewinds the list cursor; the registry calls it after each test. */
  reset(): void {
    this.calls.length = 0
    clearSpyState(this.mock)
    state(this).resolve.cursor = 0
  }

  /** The agent's name, as the runners' spy matchers print it. */
  getMockName(): string {
    return this.name
  }

  /** The same as {@link MockAgent.reset}, under the runners' spy name. */
  mockClear(): this {
    this.reset()
    return this
  }

  /** The same as {@link MockAgent.reset}: the responses are kept (there is no other implementation to restore). */
  mockReset(): this {
    this.reset()
    return this
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
  const found = internals.get(agent)
  if (!found) throw new TypeError(`${PREFIX} MockAgent method called on ${describeValue(agent)}, not a MockAgent`)
  return found
}

/** Records one invocation (as a MockCall and as spy state) and starts it. */
function invoke<T>(agent: MockAgent<T>, thisArg: unknown, args: unknown[]): Promise<Envelope<T>> {
  const internal = state(agent)
  const started = performance.now()
  const task = args[0]
  const input = task instanceof Envelope ? task : typeof task === 'string' ? Envelope.fromTask(task) : undefined
  const call: WritableCall<T> = { task: input?.task, context: input?.context, input: input ?? new Envelope(), elapsedMs: 0 }
  agent.calls.push(call)

  const promise = input
    ? execute<T>(internal, input, started)
    : Promise.reject(argumentError(internal.owner, 'task', 'a string or an Envelope', task))
  recordInvocation(agent.mock, thisArg, args, promise)
  promise.then(
    (output) => {
      call.output = output
      call.elapsedMs = performance.now() - started
    },
    (error: unknown) => {
      call.error = error
      call.elapsedMs = performance.now() - started
    },
  )
  return promise
}

async function execute<T>(internal: Internals, input: Envelope, started: number): Promise<Envelope<T>> {
  if (internal.delayMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, internal.delayMs))
  const value = await resolveResponse(internal.responses, input, internal.resolve)
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
  return env as Envelope<T>
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
