/**
 * What token counting and the prompt-cache simulation cost (SPEC §20): a 20k-token prompt's
 * round trip through the openai client, with both on (the default: gpt-4o counted with
 * `o200k_base`, the lane's cache consulted) against both off (`tokens: 'estimate',
 * promptCache: false`: the proxy counts nothing). Target ≤ 1.15×. The prompt is the same each
 * turn, as an agent's system prompt is: its count is made once and remembered.
 */
import { FakeProxy } from 'agent-doubles'
import OpenAI from 'openai'
import type { BenchGroup } from '../run.js'

let on: FakeProxy
let off: FakeProxy
let clientOn: OpenAI
let clientOff: OpenAI

/** About 20,000 o200k tokens of varied prose. */
const SYSTEM = Array.from({ length: 1400 }, (_, i) => `Rule ${i}: answer the customer politely, cite the policy, and never promise refunds.`).join('\n')
const messages = [
  { role: 'system' as const, content: SYSTEM },
  { role: 'user' as const, content: 'Where is my order?' },
]

export const groups: BenchGroup[] = [
  {
    title: 'a 20k-token prompt: tokenizer and prompt cache on vs off (SPEC §20)',
    setup: async () => {
      off = await new FakeProxy({ tokens: 'estimate', promptCache: false }).start()
      on = await new FakeProxy().start()
      clientOff = new OpenAI({ apiKey: 'test', baseURL: `${off.url}/v1`, maxRetries: 0 })
      clientOn = new OpenAI({ apiKey: 'test', baseURL: `${on.url}/v1`, maxRetries: 0 })
      // The tokenizer loads on first use: once, before the clock starts.
      await clientOn.chat.completions.create({ model: 'gpt-4o', messages })
    },
    teardown: async () => {
      await on.close()
      await off.close()
    },
    cases: [
      {
        name: 'counting off (tokens: estimate, promptCache: false)',
        fn: async () => {
          await clientOff.chat.completions.create({ model: 'gpt-4o', messages })
          off.reset()
        },
      },
      {
        name: 'tokenizer + prompt cache on (default)',
        target: 1.15,
        fn: async () => {
          await clientOn.chat.completions.create({ model: 'gpt-4o', messages })
          on.reset()
        },
      },
    ],
  },
]
