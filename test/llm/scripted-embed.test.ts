/** The ScriptedLLM `embed` option: checked when given, its vectors checked when used. */
import { describe, expect, test } from 'vitest'
import { ScriptedLLM, scriptedLLM } from '../../src/index.js'
import { openaiFor, postJson, startProxy } from '../proxy/helpers.js'

describe('scriptedLLM(script, { embed })', () => {
  test('is an option (an object of option names alone is options), exposed as llm.embed', async () => {
    const llm = scriptedLLM({ embed: (text: string, model: string) => [text.length, model.length] })
    expect(await llm.embed?.('abc', 'm1')).toEqual([3, 2])
    expect(new ScriptedLLM().embed).toBeUndefined()
  })

  test('a value that is not a function throws a TypeError naming the option', () => {
    expect(() => scriptedLLM([], { embed: [1, 2] as never })).toThrow(TypeError)
    expect(() => scriptedLLM([], { embed: [1, 2] as never })).toThrow(/ScriptedLLM: option embed must be a function \(text, model\) => number\[\]/)
  })

  test('a vector that is not numbers fails the request with a 400 in the dialect’s shape (a failing brain, SPEC §17)', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([], { embed: () => ['x'] as never }) })
    const openai = await openaiFor(proxy).embeddings.create({ model: 'e', input: 'hi' }).catch((caught: unknown) => caught)
    expect(openai).toMatchObject({ status: 400, message: expect.stringMatching(/embed option result must be a non-empty array of finite numbers/) })
    const gemini = await postJson(`${proxy.url}/v1beta/models/e:embedContent`, { content: { parts: [{ text: 'hi' }] } })
    expect(gemini.status).toBe(400)
    expect(gemini.body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } })
  })

  test('a perCall transcript session embeds with the same function', async () => {
    const transcript = JSON.stringify({ request: { model: 'm', messages: [], stream: false }, response: { content: [], finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 } } })
    const llm = await ScriptedLLM.fromTranscript(transcript, { perCall: true, embed: (text) => [text.length] })
    expect(await llm.session('a/b').embed?.('four', 'm')).toEqual([4])
  })
})
