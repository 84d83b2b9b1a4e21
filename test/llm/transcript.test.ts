import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rmSync } from 'node:fs'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'
import { parseTranscript, serializeTurn } from '../../src/llm/transcript.js'
import type { Message, ModelRequest } from '../../src/llm/types.js'

const WEATHER = 'test/transcripts/weather.jsonl'
const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-transcript-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] })
const ask = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({ model: 'any', messages: [user(text)], stream: false, ...extra })

/** The two requests the weather transcript recorded, as a client would send them again. */
const weatherTurn1: ModelRequest = { model: 'other', system: 'You are a weather bot.', messages: [user('What is the weather in Paris?')], stream: true, temperature: 0.3 }
const weatherTurn2: ModelRequest = {
  ...weatherTurn1,
  messages: [
    user('What is the weather in Paris?'),
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }] },
    { role: 'tool', content: [{ type: 'tool-result', id: 'call_1', name: 'get_weather', result: { forecast: 'sunny' } }] },
  ],
}

describe('loading', () => {
  it('replays a file turn by turn, skipping comments and blank lines', async () => {
    const llm = await ScriptedLLM.fromTranscript(WEATHER)
    expect(llm.turnsRemaining).toBe(2)
    const first = await llm.generate(ask('anything'))
    expect(first).toEqual({
      content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }],
      finishReason: 'tool-calls',
      usage: { inputTokens: 42, outputTokens: 7 },
      model: 'gpt-4o',
    })
    expect((await llm.generate(ask('anything'))).content).toEqual([{ type: 'text', text: 'It is sunny in Paris.' }])
    await expect(llm.generate(ask('more'))).rejects.toThrow(/^scripted: script exhausted at turn 3/)
    expect(() => llm.assertComplete()).not.toThrow()
  })

  it('reads text that holds a newline or starts with { as transcript text', async () => {
    const line = '{"request":{"messages":[]},"response":{"content":[{"type":"text","text":"inline"}]}}'
    const single = await ScriptedLLM.fromTranscript(line)
    expect((await single.generate(ask('x'))).content).toEqual([{ type: 'text', text: 'inline' }])
    const multi = await ScriptedLLM.fromTranscript(`# comment\n${line}\n\n${line}\n`)
    expect(multi.turnsRemaining).toBe(2)
  })

  it('fails at once naming the file and line', async () => {
    await expect(ScriptedLLM.fromTranscript('test/transcripts/malformed.jsonl')).rejects.toThrow(
      /ScriptedLLM: transcript test\/transcripts\/malformed\.jsonl line 2: malformed JSON/,
    )
    await expect(ScriptedLLM.fromTranscript('test/transcripts/missing-response.jsonl')).rejects.toThrow(
      /transcript test\/transcripts\/missing-response\.jsonl line 3: missing "response"/,
    )
    await expect(ScriptedLLM.fromTranscript('test/transcripts/no-turns.jsonl')).rejects.toThrow(
      /transcript test\/transcripts\/no-turns\.jsonl: no turns found/,
    )
    await expect(ScriptedLLM.fromTranscript('test/transcripts/absent.jsonl')).rejects.toThrow(/cannot read transcript "test\/transcripts\/absent\.jsonl"/)
  })

  it('rejects lines of the wrong shape, naming line and field', () => {
    expect(() => parseTranscript('{"response":{"content":[]}}', 'x.jsonl')).toThrow(/x\.jsonl line 1: missing "request"/)
    expect(() => parseTranscript('[1,2]', 'x.jsonl')).toThrow(/line 1: a turn must be an object/)
    expect(() => parseTranscript('\n{"request":{"messages":[{"role":"robot","content":[]}]},"response":{"content":[]}}', 'x.jsonl')).toThrow(
      /line 2: request\.messages\[0\]\.role must be/,
    )
    expect(() => parseTranscript('{"request":{"messages":[]},"response":{"content":[{"type":"tool-call","args":{}}]}}', 'x.jsonl')).toThrow(
      /x\.jsonl line 1: response\.content\[0\]\.name must be a string, got undefined/,
    )
  })

  it('rejects options of the wrong type and a non-string source', async () => {
    await expect(ScriptedLLM.fromTranscript(WEATHER, { strict: 'yes' } as never)).rejects.toThrow(/option strict must be a boolean/)
    await expect(ScriptedLLM.fromTranscript(42 as never)).rejects.toThrow(/pathOrText must be a file path or transcript text, got 42/)
  })

  it('is parsed once: edits to the file after loading change nothing', async () => {
    const path = join(dir, 'edited.jsonl')
    copyFileSync(WEATHER, path)
    const llm = await ScriptedLLM.fromTranscript(path, { perCall: true })
    writeFileSync(path, 'not json at all\n')
    const model = llm.session('fresh')
    expect((await model.generate(ask('x'))).content[0]).toMatchObject({ type: 'tool-call', name: 'get_weather' })
    expect(llm.fork().turnsRemaining).toBe(2)
  })
})

describe('strict mode', () => {
  it('accepts requests equal in system and messages, ignoring model and settings', async () => {
    const llm = await ScriptedLLM.fromTranscript(WEATHER, { strict: true })
    await llm.generate(weatherTurn1)
    expect((await llm.generate(weatherTurn2)).content).toEqual([{ type: 'text', text: 'It is sunny in Paris.' }])
  })

  it('names the turn and the first differing path with both values, and does not move on', async () => {
    const llm = await ScriptedLLM.fromTranscript(WEATHER, { strict: true })
    await llm.generate(weatherTurn1)
    const wrong: ModelRequest = structuredClone(weatherTurn2)
    ;(wrong.messages[2].content[0] as { result: unknown }).result = { forecast: 'rain' }
    const message = 'scripted: strict mismatch on turn 2: messages[2].content[0].result.forecast: expected "sunny", got "rain"'
    await expect(llm.generate(wrong)).rejects.toThrow(message)
    await expect(llm.generate(wrong)).rejects.toThrow(message)
    expect(llm.turnsRemaining).toBe(1)
  })

  it('reports a differing system prompt and a missing message', async () => {
    const llm = await ScriptedLLM.fromTranscript(WEATHER, { strict: true })
    await expect(llm.generate({ ...weatherTurn1, system: 'Be brief.' })).rejects.toThrow(
      'strict mismatch on turn 1: system: expected "You are a weather bot.", got "Be brief."',
    )
    await llm.generate(weatherTurn1)
    await expect(llm.generate({ ...weatherTurn2, messages: weatherTurn2.messages.slice(0, 2) })).rejects.toThrow(
      /strict mismatch on turn 2: messages\[2\]: expected \{"role":"tool".*\}, got undefined/,
    )
  })
})

describe('cursors', () => {
  it('shares one cursor between sessions unless perCall', async () => {
    const shared = await ScriptedLLM.fromTranscript(WEATHER)
    expect(shared.session('a')).toBe(shared)
    const perCall = await ScriptedLLM.fromTranscript(WEATHER, { perCall: true })
    const a = perCall.session('researcher')
    const b = perCall.session('critic')
    expect(perCall.session('researcher')).toBe(a)
    expect((await a.generate(ask('x'))).finishReason).toBe('tool-calls')
    expect((await b.generate(ask('x'))).finishReason).toBe('tool-calls')
    expect((await a.generate(ask('x'))).finishReason).toBe('stop')
    expect(perCall.callCount).toBe(3)
    expect(perCall.turnsRemaining).toBe(1)
    expect(() => perCall.assertComplete()).toThrow(/1 of 2 scripted turns were not consumed:\n {2}turn 2: "It is sunny in Paris\." \(test\/transcripts\/weather\.jsonl line 4\)/)
    await b.generate(ask('x'))
    expect(() => perCall.assertComplete()).not.toThrow()
    perCall.reset()
    expect(perCall.turnsRemaining).toBe(2)
    expect((await a.generate(ask('x'))).finishReason).toBe('tool-calls')
  })

  it('serialises a turn as one line that parses back', () => {
    const line = serializeTurn(ask('hi'), { content: [{ type: 'text', text: 'yo' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } })
    expect(line.endsWith('\n')).toBe(true)
    expect(line.trimEnd().includes('\n')).toBe(false)
    expect(parseTranscript(line).turns[0].request.messages).toEqual([user('hi')])
  })
})
