/**
 * Rotated rounds: how `npm run bench` and `npm run bench:ab` time cases side by side, so that
 * neither JIT warm-up nor a noisy neighbour favours one of them.
 * @module
 */

import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** What one timed run of a case cost per operation, in microseconds. */
export interface Sample {
  cpu: number
  wall: number
}

/** How long one uninterrupted batch of a case runs before the next case takes over (ms). */
export const SLICE_MS = 10

/** How many calls of `fn` take about {@link SLICE_MS}, found while warming it up for `ms`. */
export async function calibrate(fn: () => Promise<unknown>, ms: number): Promise<number> {
  let ops = 0
  const start = performance.now()
  while (performance.now() - start < ms) {
    await fn()
    ops++
  }
  return Math.max(1, Math.round((ops * SLICE_MS) / ms))
}

/**
 * One round: the cases take turns in slices of about {@link SLICE_MS} each (the order rotating
 * every turn) until each has run about `ms`, so a noisy neighbour weighs on all of them alike.
 * Returns each case's cost per operation: the process's CPU time (user + system), and wall time.
 */
export async function runRound(fns: Array<() => Promise<unknown>>, batches: number[], ms: number): Promise<Sample[]> {
  const totals = fns.map(() => ({ cpu: 0, wall: 0, ops: 0 }))
  const end = performance.now() + ms * fns.length
  for (let turn = 0; performance.now() < end; turn++) {
    for (let j = 0; j < fns.length; j++) {
      const i = (j + turn) % fns.length
      const cpu = process.cpuUsage()
      const start = performance.now()
      for (let k = 0; k < batches[i]; k++) await fns[i]()
      const used = process.cpuUsage(cpu)
      totals[i].wall += (performance.now() - start) * 1000
      totals[i].cpu += used.user + used.system
      totals[i].ops += batches[i]
    }
  }
  return totals.map((total) => ({ cpu: total.cpu / total.ops, wall: total.wall / total.ops }))
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/**
 * A full garbage collection, outside any timed slice. A group calls it once its cases are warm,
 * before its first round: what the previous groups (and the warm-up) left in the old generation
 * is then not collected by a major GC in the middle of a round, charged to whichever case happened
 * to be running. The cases' own garbage is still collected, and paid for, inside the rounds.
 */
export function collectGarbage(): void {
  collector ??= exposedGc()
  collector()
}

let collector: (() => void) | undefined

/** `gc()` as `--expose-gc` gives it (`npm run bench` passes it), else made available for this process. */
function exposedGc(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (exposed) return exposed
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}
