// A child suite of determinism.test.ts (run on the built package): six tests, each making four
// model requests through the file's proxy under seeded chaos, writing the faults to CHAOS_OUT.
const { appendFileSync } = require('node:fs')
const OpenAI = require('openai')
const { useFakeProxy } = require('agent-doubles/jest')

const proxy = useFakeProxy({ chaos: { seed: 7, rate: 0.5, kinds: ['refusal', 'empty', 'unknown_tool', 'truncated', 'content_filter'] } })

describe('chaos', () => {
  for (const name of ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']) {
    test(name, async () => {
      const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
      for (let turn = 0; turn < 4; turn++) {
        await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: `${name} ${turn}` }], tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }] })
      }
      appendFileSync(process.env.CHAOS_OUT, `${JSON.stringify({ test: `chaos ${name}`, faults: proxy.requests.map((request) => request.fault ?? null) })}\n`)
    })
  }
})
