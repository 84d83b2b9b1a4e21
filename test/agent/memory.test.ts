/**
 * What a MockAgent costs the garbage collector once its test is over. Runs in a child process
 * (it needs `--expose-gc`), so the figure is the agent's alone.
 */
import { describe, expect, test } from 'vitest'
import { runChild } from '../child-figures.js'

describe('MockAgents a test made', () => {
  test('do not outlive young-generation GCs once the test scope has dropped them', { timeout: 120_000 }, async () => {
    const result = await runChild(new URL('./children/young-survivors.ts', import.meta.url), ['--expose-gc'], '3000')
    expect(result.answered).toBe(3000)
    // Its internals used to sit in a WeakMap whose values led back to their keys, and its `mock`
    // was an object literal with getters: minor GCs kept every agent (≈ 4 KB) until a full GC
    // freed it. What is left now (≈ 0.4 KB) is V8's and the registry's own.
    expect(result.keptPerTest).toBeLessThan(1536)
    expect(result.afterFullGcPerTest).toBeLessThan(512)
  })
})
