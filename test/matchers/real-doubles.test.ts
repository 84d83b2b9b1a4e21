// The matchers against the real doubles: one shared case for the task matchers, run on each
// double a task matcher accepts, and the tool and request matchers on a FakeProxy that real
// OpenAI and Anthropic clients talked to.
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FakeProxy, ProxyClient, mockAgent, scriptedLLM, toolCall, type ModelRequest } from '../../src/index.js'
import { failureOf, plain } from './setup-expect.js'

const user = (text: string): ModelRequest => ({ model: 'mock', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text }] }] })

/** Each double, called with the tasks 'weather today' then 'market'. */
const cases: Array<{ name: string; make: () => Promise<{ double: unknown; noun: string; close?: () => Promise<void> }> }> = [
  {
    name: 'MockAgent',
    make: async () => {
      const agent = mockAgent({ '*': 'ok' }, { name: 'researcher' })
      await agent('weather today')
      await agent('market')
      return { double: agent, noun: 'researcher call' }
    },
  },
  {
    name: 'ScriptedLLM',
    make: async () => {
      const llm = scriptedLLM()
      await llm.generate(user('weather today'))
      await llm.generate(user('market'))
      return { double: llm, noun: 'request' }
    },
  },
  {
    name: 'FakeProxy',
    make: async () => {
      const proxy = await new FakeProxy().start()
      const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
      for (const content of ['weather today', 'market']) {
        await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content }] })
      }
      return { double: proxy, noun: 'request', close: () => proxy.close() }
    },
  },
]

describe.each(cases)('task matchers on a $name', ({ make }) => {
  let made: Awaited<ReturnType<typeof make>>
  beforeAll(async () => {
    made = await make()
  })
  afterAll(async () => {
    await made.close?.()
  })

  test('any, last and n-th call', () => {
    expect(made.double).toHaveBeenCalledWithTask('weather today')
    expect(made.double).toHaveBeenLastCalledWithTask('market')
    expect(made.double).toHaveBeenNthCalledWithTask(1, 'weather today')
    expect(made.double).not.toHaveBeenNthCalledWithTask(2, 'weather today')
    expect(made.double).not.toHaveBeenCalledWithTask('news')
  })

  test('the failure lists the recorded tasks', () => {
    const message = plain(failureOf(() => expect(made.double).toHaveBeenCalledWithTask('news')))
    expect(message).toContain(`1st ${made.noun}: "weather today"`)
    expect(message).toContain(`2nd ${made.noun}: "market"`)
  })
})

describe('a FakeProxy driven by real clients and a scripted brain', () => {
  let proxy: FakeProxy
  beforeAll(async () => {
    proxy = await new FakeProxy({ agents: ['researcher'] }).start()
  })
  afterAll(() => proxy.close())

  test('tool calls asked for and tool results carried back, through the OpenAI wire format', async () => {
    proxy.use(scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.']))
    const client = new OpenAI({ apiKey: 'test', maxRetries: 0, ...new ProxyClient(proxy.url).agent('researcher', { model: 'gpt-5' }).openai() })
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather in Paris?' }]
    const first = await client.chat.completions.create({ model: 'gpt-5', messages, tools })
    const call = first.choices[0].message.tool_calls![0]
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify({ temperature: 21 }) })
    await client.chat.completions.create({ model: 'gpt-5', messages, tools })

    expect(proxy).toHaveRequestedTool('get_weather', { city: 'Paris' })
    expect(proxy).toHaveReceivedToolResult('get_weather', { temperature: 21 })
    expect(proxy).not.toHaveReceivedToolResult('get_weather', { temperature: 30 })
    expect(proxy).toHaveReceivedRequests(2)
    expect(proxy).toHaveReceivedRequest({ agent: 'researcher', dialect: 'openai-chat', request: { tools: [expect.objectContaining({ name: 'get_weather' })] } })
    expect(proxy).toHaveRegisteredDefinition('researcher', { model: 'gpt-5' })
    proxy.reset()
  })

  test('the Anthropic wire format reads the same', async () => {
    proxy.use(scriptedLLM([toolCall('lookup', { q: 'x' }), 'done']))
    const client = new Anthropic({ apiKey: 'test', baseURL: proxy.url, maxRetries: 0, defaultHeaders: { 'x-viper-agent': 'researcher' } })
    const tools = [{ name: 'lookup', input_schema: { type: 'object' as const, properties: { q: { type: 'string' } } } }]
    const first = await client.messages.create({ model: 'claude', max_tokens: 100, tools, messages: [{ role: 'user', content: 'find x' }] })
    const use = first.content.find((block) => block.type === 'tool_use')!
    await client.messages.create({
      model: 'claude',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'find x' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'found' }] },
      ],
    })
    expect(proxy).toHaveRequestedTool('lookup', { q: 'x' })
    expect(proxy).toHaveReceivedToolResult('lookup')
    expect(proxy).toHaveReceivedRequest({ path: '/v1/messages', dialect: 'anthropic-messages' })
    expect(proxy).toHaveBeenCalledWithTask('find x')
    proxy.reset()
  })

  test('refusals seen on the proxy and on the thrown error', async () => {
    proxy.refuse('rate_limited', { times: 1 })
    const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    await expect(client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).rejects.toHaveRefusedWith('rate_limited')
    expect(proxy).toHaveRefusedWith('rate_limited', { times: 1 })
    expect(proxy).not.toHaveReceivedRequest({ model: 'gpt-5' })
  })
})

test('toHaveConsumedAllTurns on a real ScriptedLLM', async () => {
  const llm = scriptedLLM(['one', 'two'])
  await llm.generate(user('a'))
  expect(llm).not.toHaveConsumedAllTurns()
  const message = plain(failureOf(() => expect(llm).toHaveConsumedAllTurns()))
  expect(message).toContain('Turns remaining: 1')
  await llm.generate(user('b'))
  expect(llm).toHaveConsumedAllTurns()
  expect(scriptedLLM()).toHaveConsumedAllTurns()
})
