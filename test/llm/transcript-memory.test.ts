/**
 * What a long transcript costs to hold for replay (SPEC §23: ≤ 1.5× its file), measured in a
 * child process (it needs `--expose-gc`).
 */
import { describe, expect, test } from 'vitest'
import { runChild } from '../child-figures.js'

describe('ScriptedLLM.fromTranscript', () => {
  test('holds a transcript of short turns in about its file size, and still replays it in order', { timeout: 120_000 }, async () => {
    const result = await runChild(new URL('./children/transcript-held.ts', import.meta.url), ['--expose-gc'], '20000')
    // Parsed turns held ≈ 3× their file (2.9× for 100k turns); kept as the file's bytes and
    // parsed when replayed, ≈ 1.1×.
    expect(result.ratio).toBeLessThan(1.5)
    expect(result.first).toEqual([{ type: 'text', text: 'ok 0' }])
    expect(result.second).toEqual([{ type: 'text', text: 'ok 1' }])
    expect(result.remaining).toBe(19998)
  })
})
