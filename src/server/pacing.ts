/**
 * Paced streams (SPEC §19): `latency: { ttftMs, tokensPerSecond, jitter, seed, clock }` makes a
 * proxy's streamed answers arrive as a real model's do — the first delta after `ttftMs`, the
 * rest at `tokensPerSecond` with seeded jitter. Pacing follows the real clock, so a test's fake
 * timers do not stall it, unless `clock: 'test'` asks for the test's own timers (then advancing
 * them releases the deltas).
 * @module
 */
import type { LLM, StreamEvent, StreamOptions } from '../llm/types.js'
import { estimateTokens } from '../llm/usage.js'
import { argumentError, checkOptions, is } from '../internal/describe.js'
import { paceEvents, paceWait } from '../llm/pace.js'

/**
 * How a proxy paces its streamed answers.
 * @example
 * new FakeProxy({ latency: { ttftMs: 300, tokensPerSecond: 50, jitter: 0.2, seed: 1 } })
 */
export interface PacingOptions {
  /** Milliseconds before the first delta (time to first token). @default 0 */
  ttftMs?: number
  /** Tokens per second after the first delta; each delta waits its tokens' share. @default unpaced */
  tokensPerSecond?: number
  /** How much each wait may vary, as a fraction from 0 to 1 (0.2: ±20 %), drawn from `seed`. @default 0 */
  jitter?: number
  /** The seed of the jitter, an integer. @default 0 */
  seed?: number
  /**
   * Whose timers the waits use: `'real'` (the test's fake timers do not stall the stream) or
   * `'test'` (the global timers at the time of the wait, so `vi.advanceTimersByTime` releases it).
   * @default 'real'
   */
  clock?: 'real' | 'test'
  /** Compatible with ScriptedLLM's `latency`: the same as `ttftMs`. */
  firstChunkMs?: number
  /** Compatible with ScriptedLLM's `latency`: a fixed wait between deltas, instead of `tokensPerSecond`. */
  chunkMs?: number
}

/**
 * Checks pacing options for `owner`.
 * @throws {TypeError} naming the option and the accepted values.
 * @internal
 */
export function checkPacing(owner: string, options: unknown): PacingOptions {
  if (!is.object(options)) throw argumentError(owner, 'option latency', 'an object { ttftMs?, tokensPerSecond?, jitter?, seed?, clock? }', options)
  checkOptions(`${owner} option latency`, options, {
    ttftMs: ['a non-negative number of milliseconds', is.nonNegativeNumber],
    tokensPerSecond: ['a positive number', (value) => typeof value === 'number' && Number.isFinite(value) && value > 0],
    jitter: ['a number from 0 to 1', (value) => typeof value === 'number' && value >= 0 && value <= 1],
    seed: ['an integer', (value) => Number.isSafeInteger(value)],
    clock: ["'real' or 'test'", (value) => value === 'real' || value === 'test'],
    firstChunkMs: ['a non-negative number of milliseconds', is.nonNegativeNumber],
    chunkMs: ['a non-negative number of milliseconds', is.nonNegativeNumber],
  })
  return options as PacingOptions
}

/** Whether `options` paces anything at all. @internal */
export function paces(options: PacingOptions): boolean {
  return (options.ttftMs ?? options.firstChunkMs ?? 0) > 0 || options.tokensPerSecond !== undefined || (options.chunkMs ?? 0) > 0
}

/** `brain` with its streams paced; its JSON answers wait `ttftMs` only. @internal */
export function pacedBrain(brain: LLM, options: PacingOptions, requestNumber: number): LLM {
  return {
    generate: async (req) => {
      const response = await brain.generate(req)
      await paceWait(options.ttftMs ?? options.firstChunkMs ?? 0, options.clock, undefined)
      return response
    },
    stream: (req, streamOptions) => pacedEvents(brain.stream(req, streamOptions), options, requestNumber, streamOptions),
    ...(brain.embed ? { embed: brain.embed.bind(brain) } : {}),
  }
}

function pacedEvents(events: AsyncIterable<StreamEvent>, options: PacingOptions, requestNumber: number, streamOptions: StreamOptions = {}): AsyncGenerator<StreamEvent> {
  const random = jitterSource(options.seed ?? 0, requestNumber)
  const jitter = options.jitter ?? 0
  const delayOf = (event: StreamEvent, index: number): number => {
    const base =
      index === 0
        ? (options.ttftMs ?? options.firstChunkMs ?? 0)
        : options.tokensPerSecond
          ? (1000 * tokensOf(event)) / options.tokensPerSecond
          : (options.chunkMs ?? 0)
    return base * (1 + jitter * (2 * random() - 1))
  }
  return paceEvents(events, delayOf, options.clock, streamOptions.signal)
}

function tokensOf(event: StreamEvent): number {
  if (event.type === 'tool-call') return Math.max(1, estimateTokens(event.argsText ?? JSON.stringify(event.args ?? {}) ?? ''))
  if (event.type === 'finish') return 0
  return Math.max(1, estimateTokens(event.text))
}

/** A seeded source of numbers in [0, 1) for one request (mulberry32). */
function jitterSource(seed: number, requestNumber: number): () => number {
  let state = (Math.imul(seed | 0, 0x9e3779b1) ^ requestNumber) | 0
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}
