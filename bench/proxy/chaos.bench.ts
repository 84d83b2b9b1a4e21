/**
 * Chaos, latency and rate limits are free when off (SPEC §19): the same JSON and streamed round
 * trips through the `openai` client against a proxy with none of them set, and against one with
 * all three configured but doing nothing (`chaos` at rate 0, `latency` with no wait, a
 * `rateLimit` no run reaches). Target ≤ 1.05× each, measured side by side in one run.
 */
import { FakeProxy, scriptedLLM } from 'agent-doubles'
import OpenAI from 'openai'
import type { BenchGroup } from '../run.js'

let unset: FakeProxy
let idle: FakeProxy
let clientUnset: OpenAI
let clientIdle: OpenAI

const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'What is the weather in Paris?' }] }
const answer = 'It is sunny in Paris today, with a light breeze from the west and a high of 21 degrees.'

/** Options that configure chaos, latency and rate limits without any of them acting. */
const idleOptions = {
  chaos: { seed: 1, rate: 0 },
  latency: { ttftMs: 0, jitter: 0, seed: 1 },
  rateLimit: { requestsPerMinute: 1_000_000_000, tokensPerMinute: 1_000_000_000_000 },
}

async function setup(): Promise<void> {
  unset = await new FakeProxy({ llm: scriptedLLM(() => answer), tokens: 'estimate' }).start()
  idle = await new FakeProxy({ llm: scriptedLLM(() => answer), tokens: 'estimate', ...idleOptions }).start()
  clientUnset = new OpenAI({ apiKey: 'k', baseURL: `${unset.url}/v1`, maxRetries: 0 })
  clientIdle = new OpenAI({ apiKey: 'k', baseURL: `${idle.url}/v1`, maxRetries: 0 })
}

async function teardown(): Promise<void> {
  await unset.close()
  await idle.close()
}

// Records pile up: clear them now and then, on both, so memory stays flat for both.
let calls = 0
function clearRecords(): void {
  if (++calls % 1000 !== 0) return
  unset.reset()
  idle.reset()
}

async function json(client: OpenAI): Promise<void> {
  clearRecords()
  await client.chat.completions.create(body)
}

async function stream(client: OpenAI): Promise<void> {
  clearRecords()
  for await (const _chunk of await client.chat.completions.create({ ...body, stream: true })) {
    // read to the end
  }
}

export const groups: BenchGroup[] = [
  {
    title: 'chaos, latency and rateLimit configured but idle vs unset: JSON round trip (SPEC §19)',
    setup,
    teardown,
    cases: [
      { name: 'unset', fn: () => json(clientUnset) },
      { name: 'chaos rate 0 + latency 0 + rateLimit unreached', target: 1.05, fn: () => json(clientIdle) },
    ],
  },
  {
    title: 'chaos, latency and rateLimit configured but idle vs unset: stream round trip (SPEC §19)',
    setup,
    teardown,
    cases: [
      { name: 'unset', fn: () => stream(clientUnset) },
      { name: 'chaos rate 0 + latency 0 + rateLimit unreached', target: 1.05, fn: () => stream(clientIdle) },
    ],
  },
]
