// The authoring matchers and serializers given a lane read only that lane's records.
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { configure, FakeProxy, scriptedLLM, toolCall } from '../../src/index.js'
import '../matchers/setup-expect.js'

let proxy: FakeProxy
beforeAll(async () => {
  proxy = await new FakeProxy().start()
})
afterAll(() => proxy.close())

test('tool order, budgets and snapshots per lane', async () => {
  await using left = proxy.lane('left')
  await using right = proxy.lane('right')
  left.use(scriptedLLM([toolCall('search', { q: 'a' }), 'left done'], { usage: { inputTokens: 100, outputTokens: 10 } }))
  right.use(scriptedLLM([toolCall('book', { id: 1 }), 'right done'], { usage: { inputTokens: 1000, outputTokens: 100 } }))
  for (const lane of [left, right]) {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${lane.url}/v1`, maxRetries: 0 })
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'go' }]
    const first = await client.chat.completions.create({ model: 'gpt-5', messages })
    const call = first.choices[0].message.tool_calls![0]
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'ok' })
    await client.chat.completions.create({ model: 'gpt-5', messages })
  }
  expect(left).toBeInstanceOf(FakeProxy)
  expect(left).toHaveCalledToolsInOrder(['search'], { mode: 'exact' })
  expect(right).toHaveCalledToolsInOrder(['book'], { mode: 'exact' })
  expect(proxy).toHaveCalledToolsInOrder(['search', 'book'], { mode: 'unordered' })

  const restore = configure({ prices: { 'gpt-5': { inputPerMTok: 1, outputPerMTok: 10 } } })
  try {
    expect(left).toHaveUsedAtMost({ requests: 2, totalTokens: 220, costUsd: 0.0004 })
    expect(right).not.toHaveUsedAtMost({ totalTokens: 220 })
    expect(proxy).toHaveUsedAtMost({ requests: 4, totalTokens: 2420 })
  } finally {
    restore()
  }

  expect(left).toMatchInlineSnapshot(`
    ProxyLane "left" (2 requests) {
      #1 POST /v1/chat/completions · openai-chat · model "gpt-5"
        user: go
        reply: search({"q":"a"})
      #2 POST /v1/chat/completions · openai-chat · model "gpt-5"
        tool search: ok
        reply: left done
    }
  `)
})
