/**
 * The WebSocket sessions' share of the event loop (SPEC §11, §18: no block over 250 ms). Work
 * arriving in one turn of the loop — upgrades, client messages and the answers they set off — is
 * done at once until {@link SLICE_MS} have passed since the first of it; what arrives after that
 * waits for the next turn, in arrival order, so a thousand sessions opening or asking at once are
 * served over several turns instead of in one long block. Nothing waits while the loop has room:
 * a session's hot path pays two clock reads and one `setImmediate` a turn.
 * @module
 */

/** How long one turn of the event loop may spend on WebSocket work before the rest waits. */
export const SLICE_MS = 20

/** Work put off to a later turn (one step of it); returns `false` when more steps remain and it stays first in line. */
export type Deferred = () => boolean

/** The share of one process's event loop (one loop, so one share for every proxy in it). */
class LoopShare {
  /** When the current turn's WebSocket work began (`0`: none yet this turn). */
  #sliceStart = 0
  readonly #waiting: Deferred[] = []
  #drainScheduled = false
  readonly #endSlice = (): void => {
    this.#sliceStart = 0
    this.#drainScheduled = false
    this.#drain()
  }

  /** Whether work arriving now may be done now (nothing is waiting and the turn has room). */
  admit(): boolean {
    if (this.#waiting.length > 0) return false
    const now = performance.now()
    if (this.#sliceStart === 0) {
      this.#sliceStart = now
      this.#schedule()
      return true
    }
    return now - this.#sliceStart < SLICE_MS
  }

  /** Puts `work` off to a later turn, behind whatever already waits. */
  defer(work: Deferred): void {
    this.#waiting.push(work)
    this.#schedule()
  }

  /** Resolves in a later turn of the event loop, once the work waiting before it has run. */
  later(): Promise<void> {
    return new Promise((resolve) =>
      this.defer(() => {
        resolve()
        return true
      }),
    )
  }

  /** Forgets work that can no longer run (its session or server is gone). */
  forget(work: Deferred): void {
    const at = this.#waiting.indexOf(work)
    if (at !== -1) this.#waiting.splice(at, 1)
  }

  #schedule(): void {
    if (this.#drainScheduled) return
    this.#drainScheduled = true
    // Scheduled from the poll phase, it runs in this turn's check phase; from the check phase
    // (a drain that ran out of time), in the next turn's: timers and I/O get their turn between.
    setImmediate(this.#endSlice)
  }

  #drain(): void {
    const waiting = this.#waiting
    if (waiting.length === 0) return
    const start = performance.now()
    this.#sliceStart = start
    while (waiting.length > 0 && performance.now() - start < SLICE_MS) {
      const work = waiting[0]!
      if (work()) waiting.shift()
    }
    if (waiting.length > 0) this.#schedule()
    else this.#sliceStart = 0
  }
}

/** The share of this process's event loop. */
export const loopShare = new LoopShare()
