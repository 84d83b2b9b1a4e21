// A child suite of run-seed.test.ts (on the built package): a test under chaos with no seed,
// writing the seed its fault carries and its process id.
const { appendFileSync } = require('node:fs')
const OpenAI = require('openai')
const { useFakeProxy } = require('agent-doubles/jest')

const proxy = useFakeProxy({ chaos: { rate: 1, kinds: ['empty'] }, tokens: 'estimate', promptCache: false })

test('seed 2', async () => {
  const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'seed 2' }] })
  await new Promise((resolve) => setTimeout(resolve, 300))
  appendFileSync(process.env.CHAOS_OUT, `${JSON.stringify({ test: 'seed 2', seed: proxy.requests[0]?.fault?.seed, pid: process.pid })}\n`)
})
