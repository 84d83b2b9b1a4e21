// The body of the seed-*.vitest.ts child suites of run-seed.test.ts: a test under chaos with no
// seed (so the run's seed decides), writing the seed its fault carries and its process id.
import { appendFileSync } from 'node:fs'
import OpenAI from 'openai'
import { test } from '../../../fixtures/vitest.js'

export function seedSuite(name: string): void {
  test.override({ fakeProxyOptions: { chaos: { rate: 1, kinds: ['empty'] }, tokens: 'estimate', promptCache: false } })
  test(name, async ({ fakeProxy }) => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${fakeProxy.url}/v1`, maxRetries: 0 })
    await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: name }] })
    // Held a moment, so the run keeps its workers busy side by side.
    await new Promise((resolve) => setTimeout(resolve, 300))
    appendFileSync(process.env.CHAOS_OUT!, `${JSON.stringify({ test: name, seed: fakeProxy.requests[0]?.fault?.seed, pid: process.pid })}\n`)
  })
}
