/**
 * Conformance of the Gemini dialect with real traffic recorded by the Vercel AI SDK (see
 * test/recordings/gemini/SOURCES.md): the fake's answers carry the fields real answers carry,
 * streams end the way real streams end, real model turns sent back decode into the neutral
 * model, and errors have the real shape.
 */
import { describe, expect, test } from 'vitest'
import { scriptedLLM, toolCall } from '../../src/index.js'
import { postJson, startProxy } from '../proxy/helpers.js'
import { jsonLines, keyPaths, keyPathsOfAll, recording, sorted } from './conformance.js'

/** Fields of real traffic the fake does not produce: Gemini 3's thinking artefacts. */
const THINKING = ['thoughtSignature', 'thoughtsTokenCount']
/** A field the fake adds: the documented `FunctionCall.id`, so tool results pair by id in strict replays. */
// A function call's thoughtSignature: Gemini 3 requires it back on the next turn (SPEC §17), which
// the recordings predate.
const FAKE_EXTRAS = ['id', 'thoughtSignature']

const generate = '/v1beta/models/gemini-3-pro-preview:generateContent'
const stream = '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse'
const body = { contents: [{ role: 'user', parts: [{ text: "How many r's in strawberry?" }] }] }
const toolBody = {
  ...body,
  tools: [{ functionDeclarations: [{ name: 'weather', parameters: { type: 'OBJECT', properties: { location: { type: 'STRING' } } } }] }],
}

function sseChunks(text: string): unknown[] {
  return text.split('\n\n').filter(Boolean).map((event) => JSON.parse(event.replace(/^data: /, '')))
}

describe('Gemini answers have the fields of recorded answers', () => {
  test('a text answer', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(["There are 3 r's."]) })
    const answer = await postJson(`${proxy.url}${generate}`, body)
    const real = JSON.parse(recording('gemini/google-text.json'))
    expect(sorted(keyPaths(answer.body, FAKE_EXTRAS))).toEqual(sorted(keyPaths(real, THINKING)))
  })

  test('a function-call answer, finish message included', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('weather', { location: 'San Francisco' })]) })
    const answer = await postJson(`${proxy.url}${generate}`, toolBody)
    const real = JSON.parse(recording('gemini/google-tool-call-gemini3.json'))
    expect(sorted(keyPaths(answer.body, FAKE_EXTRAS))).toEqual(sorted(keyPaths(real, THINKING)))
    expect((answer.body as typeof real).candidates[0].finishMessage).toBe(real.candidates[0].finishMessage)
  })

  test('a text stream: the same chunk fields, and a last chunk of empty text with the finish reason', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(["There are 3 r's."]) })
    const chunks = sseChunks((await postJson(`${proxy.url}${stream}`, body)).text)
    const real = jsonLines(recording('gemini/google-text.chunks.txt')) as { candidates: { content: { parts: unknown[] }; finishReason?: string }[] }[]
    expect(sorted(keyPathsOfAll(chunks, FAKE_EXTRAS))).toEqual(sorted(keyPathsOfAll(real, THINKING)))
    const last = chunks.at(-1) as (typeof real)[number]
    expect(last.candidates[0].content.parts).toEqual([{ text: '' }])
    expect(last.candidates[0].finishReason).toBe(real.at(-1)?.candidates[0].finishReason)
    expect(chunks.slice(0, -1).every((chunk) => (chunk as (typeof real)[number]).candidates[0].finishReason === undefined)).toBe(true)
  })

  test('a function-call stream: the call whole in one chunk, then the finish chunk', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('weather', { location: 'San Francisco' })]) })
    const chunks = sseChunks((await postJson(`${proxy.url}${stream}`, toolBody)).text)
    const real = jsonLines(recording('gemini/google-tool-call.chunks.txt'))
    expect(chunks).toHaveLength(real.length)
    expect(sorted(keyPathsOfAll(chunks, FAKE_EXTRAS))).toEqual(sorted(keyPathsOfAll(real, THINKING)))
  })

  test('a bad request has the recorded error shape', async () => {
    const proxy = await startProxy()
    const answer = await postJson(`${proxy.url}${generate}`, { contents: [] })
    const real = JSON.parse(recording('gemini/issue-8943-gemini-2.5-flash-error.json'))
    expect(answer.status).toBe(real.error.code)
    expect(sorted(keyPaths(answer.body))).toEqual(sorted(keyPaths(real)))
    expect((answer.body as typeof real).error.status).toBe(real.error.status)
  })
})

test('recorded model turns sent back decode into the neutral model', async () => {
  const llm = scriptedLLM(['ok'])
  const proxy = await startProxy({ llm })
  const text = JSON.parse(recording('gemini/google-text.json')).candidates[0].content
  const call = JSON.parse(recording('gemini/google-tool-call-gemini3.json')).candidates[0].content
  await postJson(`${proxy.url}${generate}`, {
    contents: [
      ...body.contents,
      text,
      { role: 'user', parts: [{ text: 'And the weather?' }] },
      call,
      { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { output: { temperature: 18 } } } }] },
    ],
  })
  expect(llm.requests[0].messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: "How many r's in strawberry?" }] },
    { role: 'assistant', content: [{ type: 'text', text: text.parts[0].text }] },
    { role: 'user', content: [{ type: 'text', text: 'And the weather?' }] },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_weather_1', name: 'weather', args: { location: 'San Francisco' } }] },
    { role: 'tool', content: [{ type: 'tool-result', id: 'call_weather_1', name: 'weather', result: { temperature: 18 } }] },
  ])
})
