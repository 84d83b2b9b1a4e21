/**
 * Issue 29's requests that froze the whole proxy (SPEC §24: time-bounded work), each answered
 * in bounded time by a proxy in a child process whose event loop is watched (the CPU time its
 * main thread spends between timer ticks, and `monitorEventLoopDelay`'s wall-clock stalls against
 * a hang): schemas of `anyOf`/`oneOf`/`allOf` over `$ref` that backtracked exponentially (1,885 B: no answer in 60 s), `minProperties: 1e7` (3.5 s), 50k tool results
 * matched to 50k calls on every dialect (quadratic: 16 s), and a rules-file regex that
 * backtracks exponentially, sent through the control API. Then memory: 1,000 scripts and
 * 1,000 records of 100 KB, given back by `reset`.
 */
import { describe, expect, test } from 'vitest'
import { runChild } from '../child-figures.js'
import { pairsTargets } from './pairs.js'

interface Answer {
  status: number
  body: Record<string, unknown>
  bytes: number
  /** The longest block of the event loop: its main thread's CPU time between two timer ticks (`BlockMeter`). */
  blockMs: number
  /** The longest wall-clock stall, which also counts waiting for a core on a loaded machine: bounded against a hang only. */
  stallMs: number
}

describe('time-bounded work, measured in a child process', async () => {
  const results = (await runChild(new URL('./children/time-bounds.ts', import.meta.url), ['--expose-gc'])) as unknown as Record<string, Answer> & Record<string, number>

  test.each(['refBombChat', 'refBombMessages', 'nested'])('%s: a few KB of combinators over $ref get the 400 of the step budget, without stalling the loop', (name) => {
    const answer = results[name]
    expect(answer.bytes).toBeGreaterThan(1_885)
    expect(answer.status).toBe(400)
    // The step budget, or on a loaded machine the 100 ms that bounds the steps in time.
    expect(JSON.stringify(answer.body)).toMatch(/takes more than (40000 steps|100 ms) to answer/)
    expect(answer.blockMs).toBeLessThan(250)
    expect(answer.stallMs).toBeLessThan(5_000)
  })

  test('minProperties: 1e7 is refused before any property is built', () => {
    const answer = results.minProperties
    expect(answer.status).toBe(400)
    expect(JSON.stringify(answer.body)).toContain('at least 10000000 properties')
    expect(answer.blockMs).toBeLessThan(250)
    expect(answer.stallMs).toBeLessThan(5_000)
  })

  test.each(pairsTargets.map((target) => target.dialect))('%s: 50k tool results matched to 50k calls cost about ten times 5k (linear, not quadratic)', (dialect) => {
    const small = results[`pairs:${dialect}:5000`]
    const large = results[`pairs:${dialect}:50000`]
    expect([small.status, large.status]).toEqual([200, 200])
    // Quadratic matching made the large one a hundred times the small one; linear is about ten
    // (the 10 ms resolution of the monitor and the collector's pauses leave some slack).
    expect(large.blockMs).toBeLessThan(Math.max(small.blockMs, 20) * 30)
  })

  test('a rules file with /^(a+)+$/ is refused when loaded through the control API, and the proxy still serves', () => {
    expect(results.catastrophicRule.status).toBe(400)
    expect(JSON.stringify(results.catastrophicRule.body)).toContain('may backtrack exponentially')
    expect(results.stillServes.status).toBe(200)
    expect(results.stillServes.blockMs).toBeLessThan(250)
    expect(results.stillServes.stallMs).toBeLessThan(5_000)
  })

  test('1,000 scripts and 1,000 records of 100 KB are given back by reset and close', () => {
    expect(results.heapLoadedMiB).toBeGreaterThan(50)
    expect(results.heapAfterResetMiB).toBeLessThan(4)
    expect(results.heapAfterCloseMiB).toBeLessThan(4)
  })
})
