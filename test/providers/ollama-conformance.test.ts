/**
 * Conformance of the Ollama dialect with real answers published in Ollama's API reference (see
 * test/recordings/ollama/SOURCES.md): the fake's answers carry the fields real answers carry.
 */
import { expect, test } from 'vitest'
import { scriptedLLM, toolCall } from '../../src/index.js'
import { postJson, raw, startProxy } from '../proxy/helpers.js'
import { keyPaths, recording, sorted } from './conformance.js'

/**
 * Fields the fake adds: a tool call's `id` and `function.index` (newer Ollama servers send
 * them; the recording predates them).
 */
const FAKE_EXTRAS = ['id', 'index']

test('a structured-output chat answer', async () => {
  const proxy = await startProxy({ llm: scriptedLLM(['{"age": 22, "available": false}']) })
  const schema = { type: 'object', properties: { age: { type: 'integer' }, available: { type: 'boolean' } }, required: ['age', 'available'] }
  const answer = await postJson(`${proxy.url}/api/chat`, { model: 'llama3.1', messages: [{ role: 'user', content: 'age?' }], stream: false, format: schema })
  expect(sorted(keyPaths(answer.body))).toEqual(sorted(keyPaths(JSON.parse(recording('ollama/chat-structured-output.json')))))
})

test('a tool-call chat answer', async () => {
  const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_current_weather', { format: 'celsius', location: 'Paris, FR' })]) })
  const answer = await postJson(`${proxy.url}/api/chat`, { model: 'llama3.2', messages: [{ role: 'user', content: 'weather?' }], stream: false })
  const real = JSON.parse(recording('ollama/chat-tools.json'))
  expect(sorted(keyPaths(answer.body, FAKE_EXTRAS))).toEqual(sorted(keyPaths(real)))
  expect((answer.body as typeof real).message.tool_calls[0].function).toMatchObject(real.message.tool_calls[0].function)
  expect((answer.body as typeof real).done_reason).toBe(real.done_reason)
})

test('the last line of a stream carries the fields of the final answer', async () => {
  const proxy = await startProxy({ llm: scriptedLLM(['a b c']) })
  const answer = await raw(`${proxy.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'llama3.1', messages: [{ role: 'user', content: 'x' }] }) })
  const lines = answer.text.trim().split('\n').map((line) => JSON.parse(line))
  expect(sorted(keyPaths(lines.at(-1)))).toEqual(sorted(keyPaths(JSON.parse(recording('ollama/chat-structured-output.json')))))
  for (const line of lines.slice(0, -1)) expect(Object.keys(line).sort()).toEqual(['created_at', 'done', 'message', 'model'])
})

test('an embed answer', async () => {
  const proxy = await startProxy()
  const answer = await postJson(`${proxy.url}/api/embed`, { model: 'all-minilm', input: 'Why is the sky blue?' })
  expect(sorted(keyPaths(answer.body))).toEqual(sorted(keyPaths(JSON.parse(recording('ollama/embed.json')))))
})

test('the model list', async () => {
  const proxy = await startProxy()
  const answer = await raw(`${proxy.url}/api/tags`)
  // The recording predates `model`, `parent_model` and `families` as a list (it has `null`); the client types have all three.
  const real = JSON.parse(recording('ollama/tags.json'))
  expect(sorted(keyPaths(answer.body, ['model', 'parent_model', 'families']))).toEqual(sorted(keyPaths(real, ['families'])))
  expect((answer.body as typeof real).models[0].details).toHaveProperty('families')
})
