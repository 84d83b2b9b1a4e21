/**
 * Anthropic's token counting (`POST /v1/messages/count_tokens`, SPEC §20): a Messages body
 * without `max_tokens`, answered with `{ input_tokens }` — the count a `/v1/messages` request
 * with the same prompt reports as its whole input. A bad `cache_control` is the same 400.
 * @module
 */
import { countPrompt } from '../prompt-count.js'
import type { DirectDialect } from '../dialect.js'
import { anthropicMessages } from './codec.js'

/** `POST /v1/messages/count_tokens`. */
export const anthropicCountTokens: DirectDialect = {
  id: 'anthropic-count-tokens',
  kind: 'direct',
  errorStyle: 'anthropic',
  needs: ['anthropic_messages'],
  modelTraffic: false,
  // `max_tokens` is not part of a count request; the rest is read as for a message.
  decode: (json, target) => anthropicMessages.decode({ max_tokens: 1, ...json }, target),
  answer: async (request, context) => {
    const counted = await countPrompt('tokenizer', 'anthropic-messages', context.json, request)
    return { input_tokens: counted.input }
  },
}
