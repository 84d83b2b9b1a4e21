/**
 * What every runtime test file sets up the same way: whether its runtime can run here (and why
 * not, printed rather than skipped silently), how runs are isolated, a scratch working directory
 * holding `notes.txt`, the runtime's bare startup (measured once per file, before the runs), and
 * the per-run line each test prints: the run's time, the startup, and the difference.
 * @module
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { expect, test } from '../../../fixtures/vitest.js'
import { bareStartup, closeNetns, netnsReason, runtimeNode, scratch, type RunOptions, type RuntimeAnswer, type RuntimeName } from './runtimes.js'

/** The file the tool round trips read. */
export const NOTES = 'The launch code is 4217.\n'

/** One runtime test file's shared setup. */
export interface RuntimeSuite {
  /** Why the runtime cannot run here, or `undefined` when it can. */
  readonly unavailable: string | undefined
  /** The describe block's title: the runtime and version, and the reason it is skipped. */
  readonly title: string
  /** The scratch working directory (it holds `notes.txt`). */
  readonly work: string
  /** Prints one run's time beside the runtime's bare startup. */
  timed(what: string, ms: number): void
  /**
   * Registers SPEC §17's two concurrent tests (call it inside the file's concurrent describe):
   * each runs the runtime in its own lane, with its own scripted answer.
   */
  concurrentPair(run: (options: RunOptions & { env: Record<string, string> }) => Promise<RuntimeAnswer>): void
}

/**
 * Sets up a runtime test file: call it at the top level of the file (it registers `beforeAll`
 * and `afterAll`).
 */
export function runtimeSuite(which: RuntimeName, label: string, unavailable: string | undefined): RuntimeSuite {
  if (unavailable) console.warn(`[runtimes] ${label} tests skipped: ${unavailable}`)
  console.log(`[runtimes] ${label} runs in ${netnsReason ? `this network namespace with telemetry off (no namespace: ${netnsReason})` : 'a loopback-only network namespace'}`)
  const work = scratch(`${which}-work`)
  writeFileSync(join(work.dir, 'notes.txt'), NOTES)
  let startup: number | undefined
  beforeAll(async () => {
    if (unavailable) return
    if (which === 'gemini') {
      const node = await runtimeNode()
      console.log(`[runtimes] ${label} runs on Node ${node.version}${node.note ? ` (${node.note})` : ', with NODE_COMPILE_CACHE'}`)
    }
    startup = await bareStartup(which)
    console.log(`[runtimes] ${label}, bare startup (--version, same wrapper and namespace): ${Math.round(startup)} ms`)
  }, 150_000)
  afterAll(async () => {
    await closeNetns()
    work.dispose()
  })
  return {
    unavailable,
    title: `${label}${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    work: work.dir,
    timed(what, ms) {
      const past = startup === undefined ? '' : ` (bare startup ${Math.round(startup)} ms, so ${Math.round(ms - startup)} ms past startup)`
      console.log(`[runtimes] ${label}, ${what}: ${Math.round(ms)} ms${past}`)
    },
    concurrentPair(run) {
      for (const who of ['first', 'second']) {
        test(`two concurrent tests, each with its own lane and answer (${who})`, async ({ fakeProxy, scriptedLLM, task }) => {
          fakeProxy.use(scriptedLLM([`The ${who} answer.`]))
          const answer = await run({ url: fakeProxy.url, env: fakeProxy.env, prompt: `Who are you, ${who}?`, cwd: work.dir })
          this.timed(`concurrent (${who})`, answer.ms)
          expect(answer.text).toBe(`The ${who} answer.`)
          expect(fakeProxy.requests.filter((request) => !request.side).map((request) => request.lane)).toEqual([task.name])
        })
      }
    },
  }
}
