import Anthropic from '@anthropic-ai/sdk'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, vi } from 'vitest'
import { ScriptedLLM, record, toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { packingAdvice } from './packing-agent.js'

const transcript = fileURLToPath(new URL('./weather.jsonl', import.meta.url))
const trip = 'I am going to Lisbon for a week in March. What should I pack?'
const rainyLisbon = async (city: string) => ({ city, sky: 'rainy', celsius: 14 })

test('replays the recorded conversation turn by turn', async ({ fakeProxy }) => {
  // strict: each request must equal the recorded one, so a changed prompt or tool result fails loudly.
  const llm = await ScriptedLLM.fromTranscript(transcript, { strict: true })
  fakeProxy.use(llm)
  const lookup = vi.fn(rainyLisbon)

  const advice = await packingAdvice(new Anthropic({ apiKey: 'test', baseURL: fakeProxy.url }), trip, lookup)

  expect(advice).toMatch(/^Lisbon is 14°C and rainy this week: pack a light waterproof jacket/)
  expect(lookup).toHaveBeenCalledExactlyOnceWith('Lisbon')
  expect(llm).toHaveConsumedAllTurns()
  expect(fakeProxy).toHaveReceivedRequest({ dialect: 'anthropic-messages', model: 'claude-sonnet-4-6' })
  expect(fakeProxy).toHaveReceivedToolResult('get_weather', { sky: 'rainy', celsius: 14 })
})

test('a changed prompt no longer matches the recording', async ({ fakeProxy }) => {
  const llm = await ScriptedLLM.fromTranscript(transcript, { strict: true })
  fakeProxy.use(llm)
  const client = new Anthropic({ apiKey: 'test', baseURL: fakeProxy.url })

  await expect(packingAdvice(client, 'Off to Lisbon in March: what do I pack?', rainyLisbon)).rejects.toThrow(
    /scripted: strict mismatch on turn 1: messages\[0\]\.content\[0\]\.text/,
  )
  expect(llm).not.toHaveConsumedAllTurns()
})

test('a changed tool result fails on the turn that carries it back', async ({ fakeProxy }) => {
  fakeProxy.use(await ScriptedLLM.fromTranscript(transcript, { strict: true }))
  const client = new Anthropic({ apiKey: 'test', baseURL: fakeProxy.url })
  const sunnyLisbon = async (city: string) => ({ city, sky: 'sunny', celsius: 22 })

  await expect(packingAdvice(client, trip, sunnyLisbon)).rejects.toThrow(/scripted: strict mismatch on turn 2: messages\[2\]/)
})

// How a transcript like weather.jsonl is made: wrap the model in `record()` and run the agent once.
// Here the "model" is a ScriptedLLM; against a real provider, use FakeProxy's record mode instead.
test('record() writes a transcript that replays to the same answer', async ({ fakeProxy, scriptedLLM }) => {
  const dir = await mkdtemp(join(tmpdir(), 'packing-'))
  const to = join(dir, 'recorded.jsonl')
  try {
    const client = new Anthropic({ apiKey: 'test', baseURL: fakeProxy.url })
    fakeProxy.use(record(scriptedLLM([toolCall('get_weather', { city: 'Oslo' }), 'Pack a warm coat.']), { to }))
    const snowyOslo = async (city: string) => ({ city, sky: 'snow', celsius: -3 })
    const recorded = await packingAdvice(client, 'A weekend in Oslo?', snowyOslo)
    expect((await readFile(to, 'utf8')).trim().split('\n')).toHaveLength(2)

    const replay = await ScriptedLLM.fromTranscript(to, { strict: true })
    fakeProxy.use(replay)
    expect(await packingAdvice(client, 'A weekend in Oslo?', snowyOslo)).toBe(recorded)
    expect(replay).toHaveConsumedAllTurns()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
