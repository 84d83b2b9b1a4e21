/**
 * When the rank table's file is not in the shape the fast reader knows (a new `gpt-tokenizer`
 * release, say), the package's own encoding module is imported instead: the counts stay exact.
 * Isolated (test/suites.ts): the mock must not reach other files' module graph.
 */
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import { expect, test, vi } from 'vitest'
import { countTokens, prepareTokenCounter } from '../../src/index.js'

const fastLoads = vi.hoisted(() => ({ count: 0 }))

vi.mock('../../src/llm/tokenizer-load.js', () => ({
  loadEncodingFast: async () => {
    fastLoads.count++
    return undefined
  },
}))

test('the package module counts when the fast reader gives up', async () => {
  const prompt = 'You are a careful travel agent. Book only refundable fares, and confirm every date twice.'
  await prepareTokenCounter('gpt-5')
  expect(fastLoads.count).toBe(1)
  expect(countTokens(prompt, 'gpt-5')).toBe(o200k.countTokens(prompt))
  expect(countTokens(prompt, 'gpt-5')).not.toBe(Math.ceil(prompt.length / 4))
})
