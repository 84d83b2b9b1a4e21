/**
 * Request validation (SPEC §10.3): which rules check which dialect, and the 400 answer a
 * rejected request gets — the provider's own body, so clients and SDKs read it as they would
 * the real one.
 * @module
 */
import type { Dialect } from './names.js'
import type { ResponseMemory } from './response-memory.js'
import { validateAnthropic } from './anthropic-messages/validate.js'
import { validateChat } from './openai-chat/validate.js'
import { validateResponses } from './openai-responses/validate.js'
import type { Violation } from './violation.js'

export type { Violation } from './violation.js'

/**
 * The first violation of the rules of `dialect` in `json`, or `undefined` (also for dialects
 * without rules here). `memory` resolves ids of earlier Responses.
 * @example
 * validateRequest('anthropic-messages', { model: 'claude', messages: [] }, memory)?.message // 'max_tokens: Field required'
 */
export function validateRequest(dialect: Dialect, json: Record<string, unknown>, memory: ResponseMemory): Violation | undefined {
  switch (dialect) {
    case 'openai-chat':
      return validateChat(json)
    case 'openai-responses':
      return validateResponses(json, (id) => memory.get(id))
    case 'anthropic-messages':
      return validateAnthropic(json)
    default:
      return undefined
  }
}

/** The type every validation error carries, in both providers' bodies. */
export const INVALID_REQUEST = 'invalid_request_error'

/** The 400 body the provider of `style` sends for `violation` (of error `type`). */
export function rejectionBody(style: 'openai' | 'anthropic', violation: Violation, requestId: string, type = INVALID_REQUEST): unknown {
  if (style === 'anthropic') return { type: 'error', error: { type, message: violation.message }, request_id: requestId }
  return { error: { message: violation.message, type, param: violation.param, code: violation.code } }
}
