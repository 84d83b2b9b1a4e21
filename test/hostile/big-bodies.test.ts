/**
 * SPEC §24: request bodies of about 7 MB (one long chat message, 7,000 chat messages, 20,000
 * Anthropic text blocks, 5,000 Responses items) held the proxy's event loop for 0.6–3.2 s on a
 * loaded machine: decoding, parsing, validating, laying out and counting the prompt ran in one
 * turn, the tokenizer alone for a second. Now the tokenizer counts long texts a piece at a time
 * and the hot path gives the event loop a turn between its steps, so no stall is more than a
 * small part of the request's time. Measured in a child process with `monitorEventLoopDelay`,
 * as the other hostile-input tests are.
 */
import { expect, test } from 'vitest'
import { runChild } from '../child-figures.js'

interface Served {
  status: number
  bytes: number
  error: { message: string }
  ms: number
  stallMs: number
  countedTokens: number
}

test('7 MB bodies on chat, Anthropic and Responses are served in slices: no stall near the whole request’s time, the same token counts', async () => {
  const results = (await runChild(new URL('./children/big-bodies.ts', import.meta.url), [])) as unknown as Record<string, Served>
  expect(Object.keys(results)).toEqual(['chat', 'chatMany', 'anthropicBlocks', 'responses'])
  for (const [name, served] of Object.entries(results)) {
    expect(served.bytes, name).toBeGreaterThan(6_000_000)
    // Over every model's window: the window's 400, with the count made in slices.
    expect(served.status, name).toBe(400)
    // In one turn the longest stall was 49–80% of the request's time; in slices it is the
    // largest single step (the `JSON.parse` of 7 MB), a fraction of it. A ratio, not a time: it
    // holds on a loaded machine as on an idle one.
    expect(served.stallMs / served.ms, `${name}: ${served.stallMs} ms of ${served.ms} ms`).toBeLessThan(0.4)
  }
  // The tokenizer's count of the long message, made a piece at a time with turns between, is the
  // count made at once.
  expect(results.chat.error.message).toContain(`resulted in ${results.chat.countedTokens} tokens`)
}, 120_000)
