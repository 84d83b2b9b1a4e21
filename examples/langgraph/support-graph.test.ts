import { ChatAnthropic } from '@langchain/anthropic'
import { ChatOpenAI } from '@langchain/openai'
import { expect, vi } from 'vitest'
import { toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { askSupport } from './support-graph.js'

// The graph's chat model reaches this test's lane of the fake through its base URL.
const models = {
  ChatOpenAI: (url: string) => new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'test', configuration: { baseURL: `${url}/v1` } }),
  ChatAnthropic: (url: string) => new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'test', anthropicApiUrl: url }),
}
const chatModels = Object.keys(models) as (keyof typeof models)[]

test.for(chatModels)('%s: the graph loops through the tool node and ends with the answer', async (name, { fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('order_status', { orderId: 'A-17' }), 'Order A-17 has shipped.'])
  fakeProxy.use(llm)
  const lookup = vi.fn(async (orderId: string) => ({ orderId, status: 'shipped' }))

  const answer = await askSupport(models[name](fakeProxy.url), lookup, 'Where is my order A-17?')

  expect(answer).toBe('Order A-17 has shipped.')
  expect(lookup).toHaveBeenCalledWith('A-17')
  expect(fakeProxy).toHaveReceivedRequests(2)
  expect(fakeProxy).toHaveReceivedRequest({ dialect: name === 'ChatOpenAI' ? 'openai-chat' : 'anthropic-messages' })
  expect(fakeProxy).toHaveBeenCalledWithTask('Where is my order A-17?')
  expect(fakeProxy).toHaveCalledToolsInOrder(['order_status'], { mode: 'exact' })
  expect(fakeProxy).toHaveReceivedToolResult('order_status', { orderId: 'A-17', status: 'shipped' })
  expect(llm).toHaveConsumedAllTurns()
})

test('a model that answers at once ends the graph without the tool node', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM(['Ask me about an order by its id.']))
  const lookup = vi.fn(async (orderId: string) => ({ orderId, status: 'shipped' }))

  await expect(askSupport(models.ChatOpenAI(fakeProxy.url), lookup, 'Hello?')).resolves.toBe('Ask me about an order by its id.')
  expect(lookup).not.toHaveBeenCalled()
  expect(fakeProxy).toHaveReceivedRequests(1)
})
