import { expect, vi } from 'vitest'
import { lastUserText, toolCall, type ModelRequest, type ToolResultPart } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { answerCustomer, type OrderStatus, type Shop } from './support-agent.js'

// No HTTP here: `languageModel()` hands the ScriptedLLM straight to the AI SDK as its model.
const shopWith = (orders: Record<string, OrderStatus>) => ({
  orderStatus: vi.fn<Shop['orderStatus']>(async (orderId) => {
    const order = orders[orderId]
    if (!order) throw new Error(`no order ${orderId}`)
    return order
  }),
})

test('looks the order up, then answers from the result', async ({ scriptedLLM }) => {
  const llm = scriptedLLM([
    toolCall('get_order_status', { orderId: 'A-1042' }),
    'Your order A-1042 has shipped and should arrive on Friday.',
  ])
  const shop = shopWith({ 'A-1042': { orderId: 'A-1042', status: 'shipped', eta: 'Friday' } })

  const answer = await answerCustomer(llm.languageModel(), shop, 'Where is my order A-1042?')

  expect(answer).toEqual({ text: 'Your order A-1042 has shipped and should arrive on Friday.', steps: 2 })
  expect(shop.orderStatus).toHaveBeenCalledExactlyOnceWith('A-1042')
  expect(llm).toHaveRequestedTool('get_order_status', { orderId: 'A-1042' })
  expect(llm).toHaveReceivedToolResult('get_order_status', { status: 'shipped', eta: 'Friday' })
  expect(llm).toHaveReceivedRequest({ system: expect.stringContaining('support agent'), tools: [expect.objectContaining({ name: 'get_order_status' })] })
  expect(llm).toHaveConsumedAllTurns()
})

test('a malformed order id is rejected by the schema and never reaches the shop', async ({ scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('get_order_status', { orderId: '1042' }), 'Could you check the order number?'])
  const shop = shopWith({})

  const answer = await answerCustomer(llm.languageModel(), shop, 'Where is order 1042?')

  expect(answer.text).toBe('Could you check the order number?')
  expect(shop.orderStatus).not.toHaveBeenCalled()
  expect(llm).toHaveReceivedToolResult('get_order_status', expect.stringContaining('must match pattern'))
  expect(llm.requests[1].messages.at(-1)?.content[0]).toMatchObject({ type: 'tool-result', isError: true })
})

// A function script reads each request and decides: this one plays a model that looks the order
// up when it has no result yet, and answers from the result once the tool has run.
function orderDesk(req: ModelRequest) {
  const result = req.messages.flatMap((m) => m.content).find((part): part is ToolResultPart => part.type === 'tool-result')
  if (result) return `Order status: ${(result.result as OrderStatus).status}.`
  const orderId = /A-\d+/.exec(lastUserText(req))?.[0]
  return orderId ? toolCall('get_order_status', { orderId }) : 'Which order do you mean?'
}

test('a function script branches on the request', async ({ scriptedLLM }) => {
  const llm = scriptedLLM(orderDesk)
  const shop = shopWith({ 'A-7': { orderId: 'A-7', status: 'delivered' } })

  const looked = await answerCustomer(llm.languageModel(), shop, 'Has A-7 arrived?')
  const asked = await answerCustomer(llm.languageModel(), shop, 'Where is my stuff?')

  expect(looked).toEqual({ text: 'Order status: delivered.', steps: 2 })
  expect(asked).toEqual({ text: 'Which order do you mean?', steps: 1 })
  expect(llm).toHaveReceivedRequests(3)
  expect(llm).toHaveBeenLastCalledWithTask('Where is my stuff?')
  expect(shop.orderStatus).toHaveBeenCalledTimes(1)
})
