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
export function validateRequest(
  dialect: Dialect,
  json: Record<string, unknown>,
  memory: ResponseMemory,
  headers: Readonly<Record<string, string | string[] | undefined>> = {},
): Violation | undefined {
  switch (dialect) {
    case 'openai-chat':
      return validateChat(json)
    case 'openai-responses':
      return validateResponses(json, (id) => memory.get(id))
    case 'anthropic-messages':
      return validateAnthropic(json, betasOf(headers['anthropic-beta']))
    default:
      return undefined
  }
}

/** The betas an `anthropic-beta` header turns on (comma-separated, possibly given twice). */
function betasOf(header: string | string[] | undefined): ReadonlySet<string> {
  if (header === undefined) return NO_BETAS
  const values = Array.isArray(header) ? header : [header]
  return new Set(values.flatMap((value) => value.split(',')).map((beta) => beta.trim()))
}

const NO_BETAS: ReadonlySet<string> = new Set()

/** The type every validation error carries, in both providers' bodies. */
export const INVALID_REQUEST = 'invalid_request_error'

/** The 400 body the provider of `style` sends for `violation` (of error `type`). */
export function rejectionBody(style: 'openai' | 'anthropic', violation: Violation, requestId: string, type = INVALID_REQUEST): unknown {
  if (style === 'anthropic') return { type: 'error', error: { type, message: violation.message }, request_id: requestId }
  return { error: { message: violation.message, type, param: violation.param, code: violation.code } }
}
