/**
 * Request validation (SPEC §10.3): each dialect's `validate` holds its rules (its folder's
 * `validate.ts`); here, what they share and the 400 answer a rejected request gets — the provider's own body, so clients and SDKs read it as they would
 * the real one.
 * @module
 */
import type { Violation } from './violation.js'

export type { Violation } from './violation.js'

/** The betas an `anthropic-beta` header turns on (comma-separated, possibly given twice). */
export function betasOf(header: string | string[] | undefined): ReadonlySet<string> {
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
