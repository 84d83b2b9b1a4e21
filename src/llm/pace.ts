/**
 * The pacing core (SPEC §19): yields stream events each at a time of its own. A proxy's
 * `latency` and a transcript's `replaySpeed` both pace through here; they differ only in how
 * long each event waits.
 * @module
 */
import type { StreamEvent } from './types.js'

/** Whose timers a wait uses: the real clock's (fake timers do not stall it) or the test's. */
export type PaceClock = 'real' | 'test'

/** The timers of the real clock, taken when this module loads (before a test fakes them). */
const realTimers = { setTimeout: globalThis.setTimeout.bind(globalThis), clearTimeout: globalThis.clearTimeout.bind(globalThis) }

/** The real clock's `performance.now()`, taken when this module loads (before a test fakes it). */
export const realNow: () => number = globalThis.performance.now.bind(globalThis.performance)

/**
 * Yields `events`, each event but the closing `finish` after `delayOf(event, index)` ms
 * (`index` counts the paced events from 0). Each event is due at a time of its own, counted from
 * the first wait, so timer lateness does not add up over a long stream. An abort ends the wait
 * at once, leaves no timer and fails the stream with the signal's reason.
 */
export async function* paceEvents(
  events: AsyncIterable<StreamEvent> | Iterable<StreamEvent>,
  delayOf: (event: StreamEvent, index: number) => number,
  clock: PaceClock | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamEvent> {
  const now = clock === 'test' ? () => Date.now() : realNow
  let index = 0
  let due: number | undefined
  for await (const event of events) {
    if (event.type !== 'finish') {
      const ms = delayOf(event, index++)
      due = (due ?? now()) + ms
      await paceWait(due - now(), clock, signal)
      signal?.throwIfAborted()
    }
    yield event
  }
}

/** Waits `ms` on the chosen clock; an abort ends the wait at once and leaves no timer. */
export function paceWait(ms: number, clock: PaceClock | undefined, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve()
  const timers = clock === 'test' ? { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout } : realTimers
  return new Promise((resolve) => {
    const onAbort = (): void => {
      timers.clearTimeout(timer)
      resolve()
    }
    const timer = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
