// toHaveCalledToolsInOrder on real doubles driven by real clients: the AI SDK's tool loop on a
// ScriptedLLM, and the OpenAI and Anthropic SDKs against a FakeProxy.
import Anthropic from '@anthropic-ai/sdk'
import { generateText, stepCountIs, tool } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { FakeProxy, scriptedLLM, toolCall } from '../../src/index.js'
import { failureOf, plain } from '../matchers/setup-expect.js'

const echoTool = (name: string) => tool({ description: name, inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => `${name} ${city}` })

test('a ScriptedLLM driven by the AI SDK tool loop', async () => {
  const llm = scriptedLLM([
    toolCall('search', { city: 'Paris' }),
    [toolCall('get_weather', { city: 'Paris' }), toolCall('book', { city: 'Paris' })],
    'Booked.',
  ])
  const tools = { search: echoTool('search'), get_weather: echoTool('get_weather'), book: echoTool('book') }
  const { text } = await generateText({ model: llm.languageModel(), tools, stopWhen: stepCountIs(5), prompt: 'Trip to Paris' })
  expect(text).toBe('Booked.')
  expect(llm).toHaveCalledToolsInOrder(['search', 'book'])
  expect(llm).toHaveCalledToolsInOrder(['search', 'get_weather', { name: 'book', args: { city: 'Paris' } }], { mode: 'exact' })
  expect(llm).toHaveCalledToolsInOrder(['book', 'get_weather', 'search'], { mode: 'unordered' })
  expect(llm).not.toHaveCalledToolsInOrder(['book', 'search'])
  const message = plain(failureOf(() => expect(llm).toHaveCalledToolsInOrder(['book', 'search'])))
  expect(message).toContain('  1st: search({"city": "Paris"})\n  2nd: get_weather({"city": "Paris"})\n  3rd: book({"city": "Paris"})')
})

describe('a FakeProxy talked to by the OpenAI and Anthropic SDKs', () => {
  let proxy: FakeProxy
  beforeAll(async () => {
    proxy = await new FakeProxy().start()
  })
  afterAll(() => proxy.close())

  test('OpenAI chat completions', async () => {
    proxy.use(scriptedLLM([toolCall('lookup', { q: 'a' }), toolCall('lookup', { q: 'b' }), 'done']))
    const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }]
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'find' }]
    for (let turn = 0; turn < 3; turn++) {
      const { message } = (await client.chat.completions.create({ model: 'gpt-5', messages, tools })).choices[0]
      messages.push(message)
      for (const call of message.tool_calls ?? []) messages.push({ role: 'tool', tool_call_id: call.id, content: 'ok' })
    }
    expect(proxy).toHaveCalledToolsInOrder([{ name: 'lookup', args: { q: 'a' } }, { name: 'lookup', args: { q: 'b' } }], { mode: 'exact' })
    expect(proxy).not.toHaveCalledToolsInOrder([{ name: 'lookup', args: { q: 'b' } }, { name: 'lookup', args: { q: 'a' } }])
    proxy.reset()
  })

  test('Anthropic messages', async () => {
    proxy.use(scriptedLLM([toolCall('plan', { steps: 2 }), 'done']))
    const client = new Anthropic({ apiKey: 'test', baseURL: proxy.url, maxRetries: 0 })
    const tools = [{ name: 'plan', input_schema: { type: 'object' as const, properties: { steps: { type: 'number' } } } }]
    const first = await client.messages.create({ model: 'claude', max_tokens: 100, tools, messages: [{ role: 'user', content: 'plan it' }] })
    const use = first.content.find((block) => block.type === 'tool_use')!
    await client.messages.create({
      model: 'claude',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'plan it' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'planned' }] },
      ],
    })
    expect(proxy).toHaveCalledToolsInOrder([{ name: 'plan', args: { steps: expect.any(Number) } }], { mode: 'superset' })
    expect(proxy).not.toHaveCalledToolsInOrder(['plan', 'plan'], { mode: 'superset' })
    proxy.reset()
  })
})
