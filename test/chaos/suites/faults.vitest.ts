// A child suite of determinism.test.ts (not collected by the main run): six tests, each making
// four model requests under seeded chaos, writing the faults its lane recorded to CHAOS_OUT.
// CHAOS_CONCURRENT=1 runs them with test.concurrent.
import { appendFileSync } from 'node:fs'
import OpenAI from 'openai'
import { describe } from 'vitest'
import { test } from '../../../fixtures/vitest.js'

test.override({ fakeProxyOptions: { chaos: { seed: 7, rate: 0.5, kinds: ['refusal', 'empty', 'unknown_tool', 'truncated', 'content_filter'] } } })
const each = process.env.CHAOS_CONCURRENT === '1' ? test.concurrent : test

describe('chaos', () => {
  for (const name of ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot']) {
    each(name, async ({ fakeProxy }) => {
      const client = new OpenAI({ apiKey: 'test', baseURL: `${fakeProxy.url}/v1`, maxRetries: 0 })
      for (let turn = 0; turn < 4; turn++) {
        // Uneven waits, so concurrent tests interleave differently from run to run.
        await new Promise((resolve) => setTimeout(resolve, (name.length * 7 + turn * 13) % 20))
        await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: `${name} ${turn}` }], tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }] })
      }
      appendFileSync(process.env.CHAOS_OUT!, `${JSON.stringify({ test: `chaos > ${name}`, faults: fakeProxy.requests.map((request) => request.fault ?? null) })}\n`)
    })
  }
})
