// A child suite of failure-seed.test.ts: a test that fails under chaos, so its failure context
// names the seed and the faults.
import OpenAI from 'openai'
import { expect, test } from '../../../fixtures/vitest.js'

test.override({ fakeProxyOptions: { chaos: { seed: 99, rate: 1, kinds: ['empty'] } } })

test('expects an answer it never gets', async ({ fakeProxy }) => {
  const client = new OpenAI({ apiKey: 'test', baseURL: `${fakeProxy.url}/v1`, maxRetries: 0 })
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
  expect(completion.choices[0].message.content).toBe('an answer')
})
