/**
 * Shared by the tests that measure in a child process (a figure needs `--expose-gc`, or a
 * process of its own): running such a child, and what the children measure with.
 */
import { execFile } from 'node:child_process'
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
