// Record or replay under CI (SPEC §22): with CI set, transcript mode 'auto' replays only — a
// missing transcript fails with the path it looked for and how to record it — and a replay miss
// the test already failed with is not reported a second time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest'
import { openTestTranscript, runningUnderCi, transcriptPath } from '../../fixtures/per-test-transcript.js'
import { FakeProxy, scriptedLLM } from '../../src/index.js'
import { proxyTurns } from '../../src/render/conversation.js'

const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-transcript-ci-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => void vi.unstubAllEnvs())

const turn = JSON.stringify({
  request: { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello?' }] }], stream: false },
  response: { content: [{ type: 'text', text: 'Hi.' }], finishReason: 'stop' },
})

describe("transcript mode 'auto' under CI", () => {
  test('CI=true, a missing file: fails with the path and how to record, and records nothing even with an upstream', () => {
    vi.stubEnv('CI', 'true')
    vi.stubEnv('AGENT_DOUBLES_RECORD', '')
    const path = transcriptPath({ dir }, '/project/test/chat.test.ts', 'renamed test')
    const open = () => openTestTranscript({ dir, upstream: scriptedLLM(['would be recorded']) }, path)
    expect(open).toThrow(`[agent-doubles] fakeProxy: no transcript at ${path} to replay.`)
    expect(open).toThrow("Under CI (the CI variable is set) transcript mode 'auto' replays only")
    expect(open).toThrow(`To record it: run this test outside CI with fakeProxyOptions.transcript.upstream set`)
    expect(open).toThrow(`then commit ${path}`)
  })

  test('CI set, the file there: replays', () => {
    vi.stubEnv('CI', '1')
    const path = join(dir, 'there.jsonl')
    writeFileSync(path, `${turn}\n`)
    expect(openTestTranscript({ dir }, path).mode).toBe('replay')
  })

  test('outside CI (unset, "false" or "0") a missing file with an upstream records, as before', () => {
    for (const value of ['', 'false', '0']) {
      vi.stubEnv('CI', value)
      expect(runningUnderCi()).toBe(false)
      expect(openTestTranscript({ dir, upstream: scriptedLLM(['recorded']) }, join(dir, 'new.jsonl')).mode).toBe('record')
    }
    vi.stubEnv('CI', 'true')
    expect(runningUnderCi()).toBe(true)
  })

  test('AGENT_DOUBLES_RECORD=1 still records under CI (asked for by name)', () => {
    vi.stubEnv('CI', 'true')
    vi.stubEnv('AGENT_DOUBLES_RECORD', '1')
    expect(openTestTranscript({ dir, upstream: scriptedLLM(['recorded']) }, join(dir, 'forced.jsonl')).mode).toBe('record')
  })
})

test('a replay miss is reported once: finish() stays quiet when the test already failed with it, and throws when it did not', async () => {
  const path = join(dir, 'miss.jsonl')
  writeFileSync(path, `${turn}\n`)
  await using proxy = await new FakeProxy().start()
  const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const replay = openTestTranscript({ dir }, path)
  proxy.use(replay.brain)
  const clientError = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'Goodbye?' }] }).then(
    () => undefined,
    (error: Error) => error,
  )
  // The client's error carries the miss: that is the one report.
  expect(clientError?.message).toContain(`replay miss at call 1: no recorded turn of ${path} matches`)
  // The conversation says what happened to the turn.
  expect(proxyTurns(proxy.requests).map((turn) => turn.note)).toEqual([`replay miss at call 1: no recorded turn of ${path} matches`])
  const failedWith = [clientError!.message]
  expect(() => replay.finish((key) => failedWith.some((message) => message.includes(key)))).not.toThrow()
  // A test that swallowed the client's error still fails, with the miss.
  expect(() => replay.finish(() => false)).toThrow(`replay miss at call 1: no recorded turn of ${path} matches`)
  expect(() => replay.finish()).toThrow(/replay miss at call 1/)
})
