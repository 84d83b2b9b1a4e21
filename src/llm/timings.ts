/**
 * Recorded timings and replay pacing (SPEC §19): `record(…, { timings: true })` keeps each turn's
 * time to first token and the gaps between its chunks, and a replay with `replaySpeed` paces its
 * stream by them through the same pacing core as a proxy's `latency`.
 * @module
 */
import type { StreamEvent } from './types.js'
import { argumentError, describeValue, is } from '../internal/describe.js'
import { paceEvents, paceWait, realNow } from './pace.js'

/**
 * A turn's timing as a transcript keeps it (the line's `"timings"` field), in whole milliseconds.
 * @example
 * { "ttftMs": 412, "chunkMs": [18, 22, 19] }
 */
export interface TurnTimings {
  /** From the call to the first delta (for a JSON answer: to the whole answer). */
  ttftMs: number
  /** The gap before each later delta, in order; a replay that splits the answer into more deltas waits their mean for the rest. */
  chunkMs?: number[]
}

/**
 * Checks a `replaySpeed` option: a non-negative finite number (`1` as recorded, `2` twice as
 * fast, `0` instant).
 * @throws {TypeError} naming `owner`'s option replaySpeed and the accepted values.
 * @internal
 */
export function checkReplaySpeed(owner: string, value: unknown): number | undefined {
  if (value === undefined) return undefined
  if (!is.nonNegativeNumber(value)) throw argumentError(owner, 'option replaySpeed', 'a non-negative number (1 = as recorded, 2 = twice as fast, 0 = instant)', value)
  return value as number
}

/** What is wrong with a line's `"timings"` field, or `undefined`. @internal */
export function timingsProblem(value: unknown): string | undefined {
  if (!is.object(value)) return `"timings" must be an object {"ttftMs", "chunkMs"?}, got ${describeValue(value)}`
  const { ttftMs, chunkMs, ...rest } = value as Record<string, unknown>
  const extra = Object.keys(rest)[0]
  if (extra !== undefined) return `"timings" has an unknown field ${JSON.stringify(extra)}; expected ttftMs, chunkMs`
  if (!is.nonNegativeNumber(ttftMs)) return `"timings".ttftMs must be a non-negative number, got ${describeValue(ttftMs)}`
  if (chunkMs !== undefined && !(Array.isArray(chunkMs) && chunkMs.every(is.nonNegativeNumber))) {
    return `"timings".chunkMs must be an array of non-negative numbers, got ${describeValue(chunkMs)}`
  }
  return undefined
}

/**
 * `events` paced as `timings` recorded them, `speed` times as fast: the first delta after
 * `ttftMs / speed`, each later one after its recorded gap (their mean past the recorded ones).
 * On the real clock, so a test's fake timers do not stall a replay.
 * @internal
 */
export function replayPaced(events: AsyncIterable<StreamEvent> | Iterable<StreamEvent>, timings: TurnTimings, speed: number, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
  const gaps = timings.chunkMs ?? []
  const mean = gaps.length ? gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length : 0
  const delayOf = (_event: StreamEvent, index: number): number => (index === 0 ? timings.ttftMs : (gaps[index - 1] ?? mean)) / speed
  return paceEvents(events, delayOf, 'real', signal)
}

/** Waits a JSON answer's recorded time, `speed` times as fast. @internal */
export function replayWait(timings: TurnTimings, speed: number): Promise<void> {
  return paceWait(timings.ttftMs / speed, 'real', undefined)
}

/**
 * Takes one call's timings as it runs: `start()` at the call, `delta()` at each delta,
 * `timings()` at the end. On the real clock.
 * @internal
 */
export class TimingsTaker {
  readonly #start = realNow()
  #last: number | undefined
  #ttft = 0
  readonly #gaps: number[] = []

  /** Notes a delta (any stream event but `finish`) arriving now. */
  delta(): void {
    const now = realNow()
    if (this.#last === undefined) this.#ttft = now - this.#start
    else this.#gaps.push(Math.round(now - this.#last))
    this.#last = now
  }

  /** The timings taken: for a call with no delta (a JSON answer), the whole call's time. */
  timings(): TurnTimings {
    if (this.#last === undefined) return { ttftMs: Math.round(realNow() - this.#start) }
    return this.#gaps.length ? { ttftMs: Math.round(this.#ttft), chunkMs: this.#gaps } : { ttftMs: Math.round(this.#ttft) }
  }
}

/** The timings of each replayed answer (a transcript's draft, then its completed response). */
const answerTimings = new WeakMap<object, TurnTimings>()

/** Notes that `answer` replays a turn timed as `timings`. @internal */
export function noteTimings(answer: object, timings: TurnTimings): void {
  answerTimings.set(answer, timings)
}

/** The timings noted for `answer`, if any. @internal */
export function timingsOf(answer: object): TurnTimings | undefined {
  return answerTimings.get(answer)
}
