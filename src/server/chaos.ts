/**
 * Seeded chaos (SPEC §19): with `proxy.chaos({ seed, rate, kinds })`, each model request gets,
 * with probability `rate`, one of `kinds` — a misbehaviour, a provider error or a transport
 * fault. Every decision is a pure function of the seed, the test's full name and the request's
 * number in its lane, so the same seed gives every test the same faults whatever the order,
 * concurrency, sharding or timing of the run.
 * @module
 */
import { PREFIX, argumentError, checkOptions, describeValue, is } from '../internal/describe.js'
import { isMisbehaviourKind, misbehaviourKinds, type MisbehaviourKind } from '../llm/misbehave.js'
import { providedRunSeed, seedLine } from './chaos-run.js'
import { isProviderErrorName, providerErrorNames, type ProviderErrorName } from '../provider-errors.js'

/** Transport faults chaos can choose (those of `proxy.fail()`). */
export const chaosTransportFaults = Object.freeze(['disconnect', 'stall', 'malformed'] as const)

/**
 * Everything chaos can inject: each misbehaviour, each provider error and each transport fault.
 * @example
 * proxy.chaos({ seed: 7, rate: 0.3, kinds: chaosKinds.filter((kind) => kind !== 'timeout') })
 */
export const chaosKinds: readonly ChaosKind[] = Object.freeze([...new Set<ChaosKind>([...misbehaviourKinds, ...providerErrorNames, ...chaosTransportFaults])])

/**
 * One thing chaos can inject. `content_filter` is both a misbehaviour (the filtered finish) and a
 * provider error (the 400); chaos injects the misbehaviour (`proxy.providerError` gives the other).
 */
export type ChaosKind = MisbehaviourKind | ProviderErrorName | (typeof chaosTransportFaults)[number]

/**
 * What chaos injects when `kinds` is left out: every misbehaviour, the provider errors SDKs
 * retry or report at once (`rate_limit`, `overloaded`, `server_error`) and the transport faults
 * that end by themselves (`disconnect`, `malformed`). `stall` and `timeout` wait for the client
 * to give up, so they come only when asked for.
 */
export const defaultChaosKinds: readonly ChaosKind[] = Object.freeze([
  ...misbehaviourKinds,
  'rate_limit',
  'overloaded',
  'server_error',
  'disconnect',
  'malformed',
])

/**
 * Options of `proxy.chaos()` and of the `chaos` option.
 * @example
 * proxy.chaos({ seed: 42, rate: 0.2, kinds: ['invalid_tool_args', 'rate_limit', 'disconnect'] })
 */
export interface ChaosOptions {
  /**
   * The seed of every decision, an integer. `AGENT_DOUBLES_CHAOS_SEED` overrides it, to replay a
   * run. @default the run's seed: `AGENT_DOUBLES_CHAOS_SEED`, else one drawn once per run (printed)
   */
  seed?: number
  /** The chance, from 0 to 1, that a model request gets a fault. */
  rate: number
  /** What may be injected. @default {@link defaultChaosKinds} */
  kinds?: readonly ChaosKind[]
}

/** What a record carries about the fault it got (SPEC §19). */
export interface RequestFault {
  /** What was injected: a misbehaviour, a provider error or a transport fault. */
  kind: ChaosKind
  /** Who injected it: seeded chaos, or a plan (`proxy.misbehave()`). */
  source: 'chaos' | 'planned'
  /** The chaos seed that chose it. */
  seed?: number
  /** The request's 1-based number in its lane (or test), the key of the decision with the seed and the test's name. */
  request?: number
}

/** A chaos setting, checked, with its seed settled. @internal */
export interface ChaosConfig {
  readonly seed: number
  readonly rate: number
  readonly kinds: readonly ChaosKind[]
}

const SEED_ENV = 'AGENT_DOUBLES_CHAOS_SEED'
const isSeed = (value: unknown): boolean => Number.isSafeInteger(value)

/**
 * Checks chaos options for `owner` and settles the seed (`AGENT_DOUBLES_CHAOS_SEED` wins).
 * @throws {TypeError} naming the option and the accepted values: an unknown kind, a rate
 * outside [0, 1], a seed that is not an integer, an unknown option.
 * @internal
 */
export function chaosConfig(owner: string, options: unknown): ChaosConfig {
  if (!is.object(options)) throw argumentError(owner, 'options', 'an object { seed?, rate, kinds? }', options)
  checkOptions(owner, options, {
    seed: ['an integer (a safe integer, e.g. 42)', isSeed],
    rate: ['a number from 0 to 1', (value) => typeof value === 'number' && value >= 0 && value <= 1],
    kinds: [`a non-empty array of chaos kinds (${chaosKinds.join(', ')})`, (value) => Array.isArray(value) && value.length > 0],
  })
  const { seed, rate, kinds = defaultChaosKinds } = options as ChaosOptions
  if (rate === undefined) throw argumentError(owner, 'option rate', 'a number from 0 to 1', rate)
  const unknown = kinds.find((kind) => !(chaosKinds as readonly unknown[]).includes(kind))
  if (unknown !== undefined) {
    throw new TypeError(`${PREFIX} ${owner}: option kinds has an unknown kind ${describeValue(unknown)}; valid kinds: ${chaosKinds.join(', ')}`)
  }
  return Object.freeze({ seed: envSeed() ?? seed ?? runSeed(), rate, kinds: Object.freeze([...kinds]) })
}

/** The seed `AGENT_DOUBLES_CHAOS_SEED` sets, if any. @throws {TypeError} it is set and not an integer. */
function envSeed(): number | undefined {
  const text = globalThis.process?.env?.[SEED_ENV]
  if (text === undefined || text === '') return undefined
  const seed = Number(text)
  if (!/^-?\d+$/.test(text.trim()) || !isSeed(seed)) throw new TypeError(`${PREFIX} ${SEED_ENV} must be an integer, got ${JSON.stringify(text)}`)
  return seed
}

let printedSeed: number | undefined

/**
 * The run's seed, for chaos given none. With a global setup (`agent-doubles/vitest/global-setup`,
 * `agent-doubles/jest/global-setup`) it is the one the main process drew and printed once for
 * the whole run. Without one, it derives from the workers' parent process (the same in every
 * worker process of one run) and each process prints it once.
 */
function runSeed(): number {
  const provided = providedRunSeed()
  if (provided !== undefined) return provided
  const seed = hash32(`agent-doubles run ${globalThis.process?.ppid ?? 0}`)
  if (printedSeed !== seed) {
    printedSeed = seed
    console.warn(seedLine(seed))
  }
  return seed
}

/** FNV-1a over the UTF-16 code units of `text`: a small, stable 32-bit hash. */
function hash32(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** mulberry32: the next state and a number in [0, 1). */
function mulberry32(state: number): [number, number] {
  const next = (state + 0x6d2b79f5) | 0
  let t = Math.imul(next ^ (next >>> 15), 1 | next)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return [next, ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296]
}

/**
 * What chaos decides for request `number` (1-based) of the test named `key`: a kind, or
 * `undefined` for no fault. Pure: the same arguments give the same answer, anywhere.
 * @example
 * chaosDecision({ seed: 1, rate: 1, kinds: ['empty'] }, 'my test', 1) // 'empty'
 */
export function chaosDecision(config: ChaosConfig, key: string, number: number): ChaosKind | undefined {
  if (config.rate <= 0) return undefined
  const [state, roll] = mulberry32(hash32(`${config.seed}\u0000${key}\u0000${number}`))
  if (roll >= config.rate) return undefined
  const [, pick] = mulberry32(state)
  return config.kinds[Math.floor(pick * config.kinds.length)]
}

/** A proxy's (or lane's) chaos: its setting, the test it serves, its count of model requests. @internal */
export class ChaosState {
  #count = 0
  constructor(
    readonly config: ChaosConfig,
    /** The test's full name (a lane's name unless the fixtures give it). */
    public key: string,
  ) {}

  /** Decides for the next model request, counting it. */
  next(): RequestFault | undefined {
    const number = ++this.#count
    const kind = chaosDecision(this.config, this.key, number)
    return kind === undefined ? undefined : { kind, source: 'chaos', seed: this.config.seed, request: number }
  }

  /** Starts counting again, for a new test (a reset). */
  restart(key?: string): void {
    this.#count = 0
    if (key !== undefined) this.key = key
  }
}

/** How a chosen kind is answered. @internal */
export type ChaosAction =
  | { type: 'misbehave'; kind: MisbehaviourKind }
  | { type: 'provider-error'; name: ProviderErrorName }
  | { type: 'transport'; kind: (typeof chaosTransportFaults)[number] }

/** The action for `kind`. @internal */
export function chaosAction(kind: ChaosKind): ChaosAction {
  if (isMisbehaviourKind(kind)) return { type: 'misbehave', kind }
  if (isProviderErrorName(kind)) return { type: 'provider-error', name: kind }
  return { type: 'transport', kind: kind as (typeof chaosTransportFaults)[number] }
}
