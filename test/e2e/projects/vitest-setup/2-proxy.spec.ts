// A FakeProxy made at module scope and started in beforeAll, reached by the real openai client.
// No afterAll here: the setup entry closes it when the file ends (3-closed.spec.ts checks).
import OpenAI from 'openai'
import { beforeAll, expect, test } from 'vitest'
import { FakeProxy } from 'agent-doubles'

const proxy = new FakeProxy({ agents: ['researcher'] })
let firstUrl = ''

beforeAll(async () => {
  await proxy.start()
  firstUrl = proxy.url
  ;(globalThis as Record<string, unknown>).__e2eProxy = { proxy, url: proxy.url }
})

test('the real openai client reaches the module-scope proxy', async () => {
  const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const completion = await client.chat.completions.create({
    model: 'gpt-5',
    messages: [{ role: 'user', content: 'hello proxy' }],
  })
  expect(typeof completion.choices[0].message.content).toBe('string')
  expect(proxy).toHaveReceivedRequests(1)
  expect(proxy).toHaveBeenCalledWithTask('hello proxy')
  expect(proxy).toHaveReceivedRequest({ path: '/v1/chat/completions', model: 'gpt-5' })
})

test('after each test it is reset and still serves on the same port', async () => {
  expect(proxy).toHaveReceivedRequests(0)
  expect(proxy.url).toBe(firstUrl)
  const models = await fetch(`${proxy.url}/v1/models`)
  expect(models.status).toBe(200)
})
