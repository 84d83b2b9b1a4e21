/**
 * Shared by the tests that measure in a child process (a figure needs `--expose-gc`, or a
 * process of its own): running such a child, and what the children measure with.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { getHeapSpaceStatistics } from 'node:v8'

const run = promisify(execFile)

/** Runs the TypeScript file at `file` with `flags` and `args`; returns the JSON it printed last. */
export async function runChild(file: URL, flags: string[], ...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [...flags, '--import', 'tsx', fileURLToPath(file), ...args], { timeout: 110_000 })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>
}

/** V8's `gc()` in a child run with `--expose-gc`: a full collection, or a young-generation one. */
export const collectGarbage = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc!

/** Bytes in use in V8's old generation, where what outlives minor GCs ends up. */
export function oldSpaceUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size
}

/**
 * The event loop's longest block since the last {@link BlockMeter.reset}: the CPU time the main
 * thread spent between two ticks of a 10 ms timer, capped by the time that passed. On a shared,
 * loaded machine a late tick (`monitorEventLoopDelay`'s wall-clock stall) may only mean the
 * process waited for a core; what its main thread spent in that gap is what it blocked the loop
 * with. The thread's own CPU time is read from Linux's `/proc/thread-self/schedstat` (the
 * process's would count its other threads, the collector's helpers marking a large heap); elsewhere
 * the process's CPU time is used, which errs high.
 */
export class BlockMeter {
  #max = 0
  #lastWall = performance.now()
  #lastCpu = mainThreadCpuMs()
  readonly #ticker = setInterval(() => {
    const wall = performance.now()
    const cpu = mainThreadCpuMs()
    this.#max = Math.max(this.#max, Math.min(wall - this.#lastWall, cpu - this.#lastCpu))
    this.#lastWall = wall
    this.#lastCpu = cpu
  }, 10)

  /** The longest block since the last reset, in ms. */
  get maxMs(): number {
    return this.#max
  }

  /** Starts over: what ran before this call is no block of what follows. */
  reset(): void {
    this.#max = 0
    this.#lastWall = performance.now()
    this.#lastCpu = mainThreadCpuMs()
  }

  stop(): void {
    clearInterval(this.#ticker)
  }
}

/** The main thread's CPU time in ms: its own on Linux, else the process's. */
const mainThreadCpuMs = ((): (() => number) => {
  try {
    readFileSync('/proc/thread-self/schedstat', 'utf8')
    return () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6
  } catch {
    return () => {
      const { user, system } = process.cpuUsage()
      return (user + system) / 1000
    }
  }
})()
