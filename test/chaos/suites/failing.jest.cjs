// A child suite of failure-seed.test.ts (on the built package): a test that fails under chaos,
// so the failure context Jest prints names the seed and the faults.
const OpenAI = require('openai')
const { useFakeProxy } = require('agent-doubles/jest')

const proxy = useFakeProxy({ chaos: { seed: 99, rate: 1, kinds: ['empty'] }, tokens: 'estimate', promptCache: false })

test('expects an answer it never gets', async () => {
  const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
  expect(completion.choices[0].message.content).toBe('an answer')
})
