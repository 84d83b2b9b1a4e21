/**
 * SPEC §19 recorded timings and replay pacing: `record(…, { timings: true })` keeps each turn's
 * time to first token and chunk gaps (recorded here through the AI SDK against a paced fake), a
 * transcript replayed with `replaySpeed` paces its stream by them (the first delta measured
 * through the `openai` client within ± 20 %), and bad values fail naming the option.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOpenAI } from '@ai-sdk/openai'
import { streamText } from 'ai'
import { afterAll, describe, expect, test } from 'vitest'
import { ScriptedLLM, record, scriptedLLM } from '../../src/index.js'
import { parseTranscript } from '../../src/llm/transcript.js'
import { openTestTranscript } from '../../fixtures/per-test-transcript.js'
import { openaiFor, startProxy } from '../proxy/helpers.js'

const TTFT = 400
const TEN_WORDS = 'one two three four five six seven eight nine ten'
const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'count' }] }
const dir = mkdtempSync(join(tmpdir(), 'replay-timings-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Records one streamed turn through the AI SDK against a proxy pacing its answers. */
async function recordPacedTurn(): Promise<string> {
  const paced = await startProxy({ llm: scriptedLLM({ count: TEN_WORDS, warm: 'up' }), latency: { ttftMs: TTFT, tokensPerSecond: 50 }, tokens: 'estimate' })
  const lines: string[] = []
  const chat = createOpenAI({ apiKey: 'k', baseURL: `${paced.url}/v1` }).chat('gpt-4o-mini')
  // A first, unrecorded call warms the client, the connection and the proxy up.
  await streamText({ model: chat, prompt: 'warm' }).consumeStream()
  const model = record(chat, { to: { write: (line: string) => lines.push(line) }, timings: true })
  const result = streamText({ model, prompt: 'count' })
  expect(await result.text).toBe(TEN_WORDS)
  await result.consumeStream()
  for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(lines).toHaveLength(1)
  return lines[0]
}

/** The time from the response's headers to the first content delta, through `openai`. */
async function firstDeltaMs(llm: ScriptedLLM): Promise<{ ms: number; text: string }> {
  const proxy = await startProxy({ llm })
  const client = openaiFor(proxy)
  const { data: stream } = await client.chat.completions.create({ ...ask, stream: true }).withResponse()
  const started = performance.now()
  let ms: number | undefined
  let text = ''
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta.content
    if (delta && ms === undefined) ms = performance.now() - started
    text += delta ?? ''
  }
  return { ms: ms ?? Number.NaN, text }
}

describe('record(…, { timings: true }) and replaySpeed', () => {
  let line: string
  let ttftMs: number

  test('a recording keeps the time to first token and each chunk gap, in whole milliseconds', async () => {
    line = await recordPacedTurn()
    const [turn] = parseTranscript(line).turns
    expect(turn.timings).toBeDefined()
    ttftMs = turn.timings!.ttftMs
    // Recorded against a fake pacing its first delta at TTFT: within 20 % of it.
    expect(ttftMs).toBeGreaterThanOrEqual(TTFT * 0.8)
    expect(ttftMs).toBeLessThanOrEqual(TTFT * 1.2)
    expect(turn.timings!.chunkMs!.length).toBeGreaterThan(0)
    expect(turn.timings!.chunkMs!.every((gap) => Number.isInteger(gap) && gap >= 0)).toBe(true)
    // Compact: one small field beside the turn, no per-chunk objects.
    expect(JSON.parse(line).timings).toEqual({ ttftMs, chunkMs: turn.timings!.chunkMs })
  })

  test('replaySpeed 1 paces the first delta as recorded (± 20 %); 2 twice as fast; left out, at once', async () => {
    const asRecorded = await firstDeltaMs(await ScriptedLLM.fromTranscript(line, { replaySpeed: 1 }))
    expect(asRecorded.text).toBe(TEN_WORDS)
    expect(asRecorded.ms).toBeGreaterThanOrEqual(ttftMs * 0.8)
    expect(asRecorded.ms).toBeLessThanOrEqual(ttftMs * 1.2)

    const twice = await firstDeltaMs(await ScriptedLLM.fromTranscript(line, { replaySpeed: 2 }))
    expect(twice.ms).toBeGreaterThanOrEqual((ttftMs / 2) * 0.8)
    expect(twice.ms).toBeLessThanOrEqual((ttftMs / 2) * 1.2)

    for (const replaySpeed of [undefined, 0]) {
      const instant = await firstDeltaMs(await ScriptedLLM.fromTranscript(line, { replaySpeed }))
      expect(instant.text).toBe(TEN_WORDS)
      expect(instant.ms).toBeLessThan(ttftMs / 2)
    }
  })

  test("the fixtures' per-test transcript replays at its replaySpeed too", async () => {
    const path = join(dir, 'timed.jsonl')
    writeFileSync(path, line)
    const transcript = openTestTranscript({ mode: 'replay', replaySpeed: 1 }, path)
    const proxy = await startProxy({ llm: transcript.brain })
    const { data: stream } = await openaiFor(proxy).chat.completions.create({ ...ask, stream: true }).withResponse()
    const started = performance.now()
    let ms: number | undefined
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content && ms === undefined) ms = performance.now() - started
    expect(ms).toBeGreaterThanOrEqual(ttftMs * 0.8)
    expect(ms).toBeLessThanOrEqual(ttftMs * 1.2)
    transcript.finish()
  })

  test('a JSON answer recorded with timings keeps its whole time; replayed, it waits it', async () => {
    const lines: string[] = []
    const slow = { generate: async () => (await new Promise((resolve) => setTimeout(resolve, 150)), { content: [{ type: 'text' as const, text: 'ok' }], finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } }), stream: () => [] as never }
    await record(slow, { to: { write: (l: string) => lines.push(l) }, timings: true }).generate({ model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })
    const { timings } = parseTranscript(lines[0]).turns[0]
    expect(timings?.chunkMs).toBeUndefined()
    expect(timings!.ttftMs).toBeGreaterThanOrEqual(150 * 0.8)
    const replay = await ScriptedLLM.fromTranscript(lines[0], { replaySpeed: 1 })
    const started = performance.now()
    await replay.generate({ model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })
    expect(performance.now() - started).toBeGreaterThanOrEqual(timings!.ttftMs * 0.8)
  })

  test('bad values: TypeError naming the option and the accepted values', async () => {
    await expect(ScriptedLLM.fromTranscript(line, { replaySpeed: -1 })).rejects.toThrow(TypeError)
    await expect(ScriptedLLM.fromTranscript(line, { replaySpeed: -1 })).rejects.toThrow(/ScriptedLLM\.fromTranscript: option replaySpeed must be a non-negative number \(1 = as recorded/)
    await expect(ScriptedLLM.fromTranscript(line, { replaySpeed: 'fast' as never })).rejects.toThrow(/option replaySpeed must be a non-negative number.*got "fast"/)
    await expect(ScriptedLLM.fromTranscript(line, { replaySpeed: Number.POSITIVE_INFINITY })).rejects.toThrow(/option replaySpeed/)
    expect(() => record(scriptedLLM(), { to: { write: () => {} }, timings: 'yes' as never })).toThrow(/record: option timings must be a boolean/)
    expect(() => openTestTranscript({ mode: 'replay', replaySpeed: -2 } as never, join(dir, 'none.jsonl'))).toThrow()
    const { checkTranscriptOptions } = await import('../../fixtures/per-test-transcript.js')
    expect(() => checkTranscriptOptions('fakeProxy', { replaySpeed: -2 })).toThrow(/transcript: option replaySpeed must be a non-negative number/)
    const bad = line.replace(/"timings":\{[^}]*\}/, '"timings":{"ttftMs":"slow"}')
    await expect(ScriptedLLM.fromTranscript(bad)).rejects.toThrow(/line 1: "timings".ttftMs must be a non-negative number, got "slow"/)
  })
})
