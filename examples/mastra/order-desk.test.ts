import { expect, vi } from 'vitest'
import { toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { orderDesk } from './order-desk.js'

const shipped = async (orderId: string) => ({ orderId, status: 'shipped' })

test('the model calls the tool, Mastra runs it and sends the result back, the model answers', async ({ fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('order_status', { orderId: 'A-17' }), 'Order A-17 has shipped.'])
  fakeProxy.use(llm)
  const lookup = vi.fn(shipped)
  const agent = orderDesk({ id: 'openai/gpt-4o-mini', url: `${fakeProxy.url}/v1`, apiKey: 'test' }, lookup)

  const result = await agent.generate('Where is my order A-17?')

  expect(result.text).toBe('Order A-17 has shipped.')
  expect(lookup).toHaveBeenCalledWith('A-17')
  // Mastra's OpenAI-compatible config speaks Chat Completions, with the agent's instructions as the system prompt.
  expect(fakeProxy).toHaveReceivedRequest({ dialect: 'openai-chat', model: 'gpt-4o-mini' })
  expect(fakeProxy).toHaveBeenCalledWithTask('Where is my order A-17?')
  expect(fakeProxy).toHaveRequestedTool('order_status', { orderId: 'A-17' })
  expect(fakeProxy).toHaveReceivedToolResult('order_status', { orderId: 'A-17', status: 'shipped' })
  expect(llm).toHaveConsumedAllTurns()
})

test("a plain model id reaches the fake through the fixture's OPENAI_BASE_URL, over the Responses API", async ({ fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('order_status', { orderId: 'B-2' }), 'Order B-2 is being packed.'])
  fakeProxy.use(llm)

  const result = await orderDesk('openai/gpt-4o-mini', async (orderId) => ({ orderId, status: 'packing' })).generate('And order B-2?')

  expect(result.text).toBe('Order B-2 is being packed.')
  expect(fakeProxy).toHaveReceivedRequests(2)
  expect(fakeProxy).toHaveReceivedRequest({ dialect: 'openai-responses', model: 'gpt-4o-mini' })
  expect(fakeProxy).toHaveReceivedToolResult('order_status', { orderId: 'B-2', status: 'packing' })
})
