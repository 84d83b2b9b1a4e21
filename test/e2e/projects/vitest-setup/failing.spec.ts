// Deliberately failing matchers: the driver reads their messages from the child's output.
import OpenAI from 'openai'
import { expect, test } from 'vitest'
import { FakeProxy, mockAgent } from 'agent-doubles'

const writer = mockAgent({ '*': 'draft' }, { name: 'writer' })

test('toHaveBeenCalledWithTask fails and lists the recorded tasks', async () => {
  await writer('summarise the findings')
  await writer('polish the draft')
  expect(writer).toHaveBeenCalledWithTask('nope')
})

test('its .not form fails and shows the task it did receive', async () => {
  await writer('publish the post')
  expect(writer).not.toHaveBeenCalledWithTask('publish the post')
})

test('toHaveReceivedRequest fails and lists the requests by model and path', async () => {
  await using proxy = await new FakeProxy().start()
  const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  await client.chat.completions.create({ model: 'gpt-5-mini', messages: [{ role: 'user', content: 'hi' }] })
  expect(proxy).toHaveReceivedRequest({ model: 'claude-opus' })
})

test('a passing test in the same file still passes', async () => {
  await writer('first')
  expect(writer).toHaveBeenCalledWithTask('first')
})
