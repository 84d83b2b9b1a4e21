// The machinery behind fakeProxyOptions.transcript, in process: record a streamed turn through a
// FakeProxy, replay it, miss it, and the clear errors for what cannot work.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, expect, test } from 'vitest'
import { checkTranscriptOptions, openTestTranscript, transcriptPath, unusedTranscripts } from '../../fixtures/per-test-transcript.js'
import { FakeProxy, scriptedLLM } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-transcripts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function streamedAnswer(proxy: FakeProxy, question: string): Promise<string> {
  const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const stream = await client.chat.completions.create({ model: 'gpt-5', stream: true, messages: [{ role: 'user', content: question }] })
  let text = ''
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
  return text
}

test('records a streamed turn, replays it, and fails a miss with the nearest turn', async () => {
  const options = { dir, upstream: scriptedLLM(['Streaming works fine.']) }
  const path = transcriptPath(options, '/project/test/chat.test.ts', 'chat > streams an answer')
  expect(path).toBe(join(dir, 'chat.test.ts', 'chat-streams-an-answer.jsonl'))
  await using proxy = await new FakeProxy().start()

  const recording = openTestTranscript(options, path)
  expect(recording.mode).toBe('record')
  proxy.use(recording.brain)
  expect(await streamedAnswer(proxy, 'Does streaming work?')).toBe('Streaming works fine.')
  recording.finish()
  expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(1)

  const replay = openTestTranscript({ dir }, path)
  expect(replay.mode).toBe('replay')
  proxy.use(replay.brain)
  expect(await streamedAnswer(proxy, 'Does streaming work?')).toBe('Streaming works fine.')
  expect(() => replay.finish()).not.toThrow()

  const missed = openTestTranscript({ dir }, path)
  proxy.use(missed.brain)
  await expect(streamedAnswer(proxy, 'Does caching work?')).rejects.toThrow()
  expect(() => missed.finish()).toThrow(/replay miss at call 1: .*nearest recorded turn: 1 of 1 \(line 1\)\.\n- recorded\n\+ received\n- user: Does streaming work\?\n\+ user: Does caching work\?/)

  expect(unusedTranscripts({ dir }, '/project/test/chat.test.ts', new Set([path]))).toEqual([])
  expect(unusedTranscripts({ dir }, '/project/test/chat.test.ts', new Set())).toEqual([path])
})

test('what cannot work says so', () => {
  const missing = join(dir, 'nothing', 'here.jsonl')
  expect(() => openTestTranscript({ mode: 'replay' }, missing)).toThrow(`transcript mode 'replay' but there is no ${missing}`)
  expect(() => openTestTranscript({}, missing)).toThrow(`no transcript at ${missing} to replay and no upstream to record one from`)
  expect(existsSync(missing)).toBe(false)
  expect(() => checkTranscriptOptions('fakeProxyOptions', { mode: 'always' })).toThrow(/option mode must be 'replay', 'record' or 'auto', got "always"/)
  expect(() => checkTranscriptOptions('fakeProxyOptions', { upstream: 'https://api.openai.com' })).toThrow(/option upstream must be an LLM \(\{ generate, stream \}\)/)
  expect(() => checkTranscriptOptions('fakeProxyOptions', 'auto')).toThrow(/option transcript must be \{ dir\?, mode\?, upstream\?, redact\?, normalize\? \}/)
})
