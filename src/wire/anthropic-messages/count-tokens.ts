/**
 * Anthropic's token count (`POST /v1/messages/count_tokens`, also with `?beta=true` as Claude
 * Code sends it): the Messages request without `max_tokens`, answered `{ input_tokens }` — the
 * count a `/v1/messages` request with the same prompt reports as its whole input (SPEC §17,
 * §20); a bad `cache_control` is the same 400. Not model traffic: plans and the script are
 * untouched, and the request is recorded as a side request.
 * @module
 */
import { countPrompt } from '../prompt-count.js'
import type { DirectDialect } from '../dialect.js'
import { anthropicMessages } from './codec.js'

/** The token-count dialect. */
export const anthropicCountTokens: DirectDialect = {
  id: 'anthropic-count-tokens',
  kind: 'direct',
  errorStyle: 'anthropic',
  needs: ['anthropic_messages'],
  modelTraffic: false,
  // The same body as a Messages request (model, messages, system, tools), without max_tokens.
  decode: (json, target, memory) => anthropicMessages.decode({ ...json, max_tokens: 1 }, target, memory),
  answer: async (request, context) => ({ input_tokens: (await countPrompt('tokenizer', anthropicMessages, context.json, request)).input }),
}
