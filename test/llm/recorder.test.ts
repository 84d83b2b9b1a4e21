import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { generateText, stepCountIs, streamText, tool } from 'ai'
import { z } from 'zod'
import { record } from '../../src/llm/recorder.js'
import { ScriptedLLM, scriptedLLM } from '../../src/llm/scripted-llm.js'
import { toolCall } from '../../src/llm/helpers.js'
import type { AiCallOptions } from '../../src/llm/language-model.js'
import type { ModelRequest, StreamEvent } from '../../src/llm/types.js'

const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-recorder-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let files = 0
const newPath = (): string => join(dir, `nested/t${++files}.jsonl`)
const lines = (path: string): Array<{ request: ModelRequest; response: unknown }> =>
  readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line))
const ask = (text: string): ModelRequest => ({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text }] }], stream: false })

describe('record() of an LLM', () => {
  it('appends one line per call that replays to the same responses', async () => {
    const path = newPath()
    const inner = scriptedLLM([toolCall('lookup', { q: 'x' }), { text: 'answer', reasoning: 'hmm' }])
    const recorded = record(inner, { to: path })
    const original = [await recorded.generate(ask('one')), await recorded.generate(ask('two'))]
    expect(lines(path).map((line) => line.request.messages[0].content)).toEqual([[{ type: 'text', text: 'one' }], [{ type: 'text', text: 'two' }]])
    const replay = await ScriptedLLM.fromTranscript(path, { strict: true })
    expect([await replay.generate(ask('one')), await replay.generate(ask('two'))]).toEqual(original)
  })

  it('snapshots the request before the inner call', async () => {
    const path = newPath()
    const mutating = { generate: async (req: ModelRequest) => {
      req.messages.push({ role: 'assistant', content: [] })
      return { content: [{ type: 'text' as const, text: 'ok' }], finishReason: 'stop' as const, usage: { inputTokens: 1, outputTokens: 1 } }
    }, stream: () => { throw new Error('unused') } }
    await record(mutating, { to: path }).generate(ask('before'))
    expect(lines(path)[0].request.messages).toHaveLength(1)
  })

  it('records a stream whole, also when the caller stops reading early', async () => {
    const path = newPath()
    const recorded = record(scriptedLLM(['one two three four']), { to: path })
    const seen: StreamEvent[] = []
    for await (const event of recorded.stream({ ...ask('go'), stream: true })) {
      seen.push(event)
      break
    }
    expect(seen).toEqual([{ type: 'text-delta', text: 'one ' }])
    expect(lines(path)[0].response).toMatchObject({ content: [{ type: 'text', text: 'one two three four' }], finishReason: 'stop' })
  })

  it('passes an inner error through and records nothing', async () => {
    const path = newPath()
    const recorded = record(scriptedLLM([new Error('boom'), new Error('stream boom')]), { to: path })
    await expect(recorded.generate(ask('x'))).rejects.toThrow('boom')
    const consume = async (): Promise<void> => {
      for await (const _ of recorded.stream(ask('x'))) void _
    }
    await expect(consume()).rejects.toThrow('stream boom')
    expect(existsSync(path)).toBe(false)
  })

  it('never writes secrets: only the neutral request fields reach the transcript', async () => {
    const out = new PassThrough()
    let written = ''
    out.on('data', (chunk) => (written += chunk))
    const req = { ...ask('hi'), headers: { authorization: 'Bearer sk-secret-1' }, apiKey: 'sk-secret-2' } as ModelRequest
    await record(scriptedLLM(), { to: out }).generate(req)
    expect(written).toContain('"hi"')
    expect(written).not.toMatch(/sk-secret|authorization|apiKey/)
  })

  it('forwards sessions, recording each', async () => {
    const path = newPath()
    const inner = await ScriptedLLM.fromTranscript('test/transcripts/weather.jsonl', { perCall: true })
    const recorded = record(inner, { to: path })
    await recorded.session!('a').generate(ask('x'))
    await recorded.session!('b').generate(ask('x'))
    expect(lines(path).map((line) => (line.response as { finishReason: string }).finishReason)).toEqual(['tool-calls', 'tool-calls'])
  })

  it('rejects what it cannot record', () => {
    expect(() => record({} as never, { to: newPath() })).toThrow(/\[agent-doubles\] record: inner must be an LLM/)
    expect(() => record(scriptedLLM(), {} as never)).toThrow(/record: option to must be a file path or a writable stream, got undefined/)
    expect(() => record(scriptedLLM(), { to: 42 } as never)).toThrow(/option to must be/)
  })
})

describe('record() of an AI SDK language model', () => {
  const weatherTool = tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `${city}: sunny` })

  it('returns a language model whose tool loop replays from the transcript', async () => {
    const path = newPath()
    const live = scriptedLLM([toolCall('get_weather', { city: 'Lima' }), 'Lima is sunny.'])
    const model = record(live.languageModel('real-model'), { to: path })
    expect(model.specificationVersion).toBe('v3')
    const run = (m: typeof model) =>
      generateText({ model: m, tools: { get_weather: weatherTool }, stopWhen: stepCountIs(3), prompt: 'Lima?', headers: { authorization: 'Bearer sk-live' } })
    const first = await run(model)
    expect(first.text).toBe('Lima is sunny.')
    expect(readFileSync(path, 'utf8')).not.toContain('sk-live')
    const turns = lines(path)
    expect(turns).toHaveLength(2)
    expect(turns[1].request.messages[2]).toEqual({ role: 'tool', content: [{ type: 'tool-result', id: 'call_1_1', name: 'get_weather', result: 'Lima: sunny' }] })

    const replay = await ScriptedLLM.fromTranscript(path, { strict: true })
    const second = await run(replay.languageModel())
    expect(second.text).toBe(first.text)
    expect(second.steps.map((s) => s.toolCalls.map((c) => c.input))).toEqual(first.steps.map((s) => s.toolCalls.map((c) => c.input)))
    replay.assertComplete()
  })

  it('records streamed calls whole, also when the reader cancels early', async () => {
    const path = newPath()
    const model = record(scriptedLLM([{ text: 'alpha beta gamma', reasoning: 'why' }]).languageModel(), { to: path })
    const options: AiCallOptions = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] }
    const { stream } = await model.doStream(options)
    const reader = stream.getReader()
    expect((await reader.read()).value).toEqual({ type: 'stream-start', warnings: [] })
    await reader.cancel()
    expect(lines(path)[0].response).toMatchObject({
      content: [{ type: 'reasoning', text: 'why' }, { type: 'text', text: 'alpha beta gamma' }],
      finishReason: 'stop',
      model: 'mock',
    })
  })

  it('records streamText through the recorder and replays the same text', async () => {
    const path = newPath()
    const model = record(scriptedLLM(['streamed words here']).languageModel(), { to: path })
    expect(await streamText({ model, prompt: 'hi' }).text).toBe('streamed words here')
    const replay = await ScriptedLLM.fromTranscript(path)
    expect(await streamText({ model: replay.languageModel(), prompt: 'hi' }).text).toBe('streamed words here')
  })

  it('passes a failing call through and records nothing', async () => {
    const path = newPath()
    const model = record(scriptedLLM([new Error('denied')]).languageModel(), { to: path })
    await expect(generateText({ model, prompt: 'x', maxRetries: 0 })).rejects.toThrow('denied')
    expect(existsSync(path)).toBe(false)
  })
})
