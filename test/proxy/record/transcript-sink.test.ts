/**
 * TranscriptSink: lines in call order under concurrency, folders created, streams left open,
 * nothing but the neutral request written, and what it wrote replays.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, onTestFinished, test } from 'vitest'
import { ScriptedLLM } from '../../../src/llm/scripted-llm.js'
import type { ModelRequest, ModelResponse } from '../../../src/llm/types.js'
import { TranscriptSink } from '../../../src/upstream/transcript-sink.js'

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-doubles-sink-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

const request = (text: string): ModelRequest => ({ model: 'gpt-test', messages: [{ role: 'user', content: [{ type: 'text', text }] }], stream: false })
const response = (text: string): ModelResponse => ({ content: [{ type: 'text', text }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2 } })

describe('TranscriptSink', () => {
  test('appends concurrent turns in call order, each whole, into a folder it creates', async () => {
    const file = join(await tempDir(), 'nested', 'deeper', 'turns.jsonl')
    const sink = new TranscriptSink(file)
    await Promise.all(Array.from({ length: 50 }, (_, i) => sink.append(request(`q${i}`), response(`a${i}`))))
    await sink.close()
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n')
    expect(lines).toHaveLength(50)
    lines.forEach((line, i) => expect(JSON.parse(line)).toEqual({ request: request(`q${i}`), response: response(`a${i}`) }))
  })

  test('writes only the neutral request fields: headers or keys smuggled onto the object never reach the line', async () => {
    const stream = new PassThrough()
    let written = ''
    stream.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')))
    const sink = new TranscriptSink(stream)
    const leaky = { ...request('hi'), headers: { authorization: 'Bearer sk-secret' }, apiKey: 'sk-secret' } as ModelRequest
    await sink.append(leaky, response('hello'))
    await sink.close()
    expect(written).toBe(`${JSON.stringify({ request: request('hi'), response: response('hello') })}\n`)
    expect(written).not.toContain('sk-secret')
  })

  test('leaves a stream it did not open open, and stays usable after close()', async () => {
    const stream = new PassThrough()
    const chunks: string[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')))
    const sink = new TranscriptSink(stream)
    await sink.append(request('one'), response('1'))
    await sink.close()
    expect(stream.writableEnded).toBe(false)
    await sink.append(request('two'), response('2'))
    await sink.close()
    expect(chunks).toHaveLength(2)
  })

  test('a line that cannot be written rejects its append, and later lines are still tried', async () => {
    const dir = await tempDir()
    const sink = new TranscriptSink(dir) // a folder: appending to it fails
    await expect(sink.append(request('a'), response('1'))).rejects.toThrow(/EISDIR|illegal operation/)
    await expect(sink.append(request('b'), response('2'))).rejects.toThrow(/EISDIR|illegal operation/)
    await expect(sink.close()).resolves.toBeUndefined()
  })

  test('what it writes replays through ScriptedLLM.fromTranscript, turn by turn', async () => {
    const file = join(await tempDir(), 'replay.jsonl')
    const sink = new TranscriptSink(file)
    const call: ModelResponse = { content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }], finishReason: 'tool-calls', usage: { inputTokens: 9, outputTokens: 4 }, model: 'gpt-test', id: 'chatcmpl-1' }
    await sink.append(request('weather?'), call)
    await sink.append(request('thanks'), response('You are welcome.'))
    await sink.close()
    const llm = await ScriptedLLM.fromTranscript(file, { strict: true })
    expect(await llm.generate(request('weather?'))).toEqual(call)
    expect(await llm.generate(request('thanks'))).toMatchObject(response('You are welcome.'))
    llm.assertComplete()
  })
})
