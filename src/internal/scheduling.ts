/**
 * Node's scheduling primitives with a web fallback, so the in-process path runs where `process`
 * and `setImmediate` do not exist (a browser, an edge runtime). In Node they are Node's own, so
 * the order of events there is unchanged.
 * @module
 */

type NextTick = <Args extends unknown[]>(task: (...args: Args) => void, ...args: Args) => void

interface NodeScheduling {
  process?: { nextTick?: NextTick }
  setImmediate?(task: () => void): unknown
}

const node = globalThis as NodeScheduling

/**
 * Runs `task(...args)` once the current operation ends, before other queued work: Node's
 * `process.nextTick`, else a microtask.
 */
export const nextTick: NextTick = (task, ...args) => {
  // Looked up on each call, as a direct `process.nextTick` is (fake timers may replace it).
  if (node.process?.nextTick) node.process.nextTick(task, ...args)
  else queueMicrotask(() => task(...args))
}

/**
 * Resolves on a later turn of the event loop, after pending I/O: Node's `setImmediate`, else a
 * zero-delay timer.
 */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => (node.setImmediate ? node.setImmediate(resolve) : setTimeout(resolve, 0)))
}

/**
 * Long synchronous work cut into slices (SPEC §24: no request blocks the event loop for more
 * than 250 ms): call {@link LoopSlices.turn} between pieces of work; once the work since the
 * last turn has taken `sliceMs`, it gives the event loop a turn ({@link yieldToLoop}), else it
 * returns `undefined` at once, so short work never waits.
 */
export class LoopSlices {
  #since = performance.now()

  constructor(readonly sliceMs = 20) {}

  /** A turn of the event loop when this slice is used up, else `undefined`. */
  turn(): Promise<void> | undefined {
    if (performance.now() - this.#since < this.sliceMs) return undefined
    return yieldToLoop().then(() => {
      this.#since = performance.now()
    })
  }
}
