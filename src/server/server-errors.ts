/**
 * The body of the answers the server writes by itself — HTTP-level faults (`clientError`) and
 * the fake's own crashes — in the error shape of the route the request was for, read from
 * whatever start of the request the server has.
 * @module
 */
import { inputErrorBody } from '../wire/dialect.js'
import { errorStyleFor } from '../wire/dialects.js'
import { withRequestId } from '../wire/anthropic-messages/errors.js'
import type { ErrorStyle } from '../gateway/refusal-answer.js'

/**
 * The error style for a raw request start (`METHOD /path HTTP/1.1\r\nheader: …`): the path's
 * style, or Anthropic's when an Anthropic header is there; OpenAI's when nothing tells.
 */
export function errorStyleForHead(head: string): ErrorStyle {
  const path = /^\S+ (\/[^\s?]*)/.exec(head)?.[1]
  const style = path === undefined ? 'openai' : errorStyleFor(path)
  if (style === 'openai' && /(^|\n)(anthropic-version|x-api-key)\s*:/i.test(head)) return 'anthropic'
  return style
}

/**
 * A server-written error body in the shape `head` points to.
 * @example
 * serverErrorBody(431, 'headers too large', 'POST /v1/messages HTTP/1.1') // { type: 'error', error: { … } }
 */
export function serverErrorBody(status: number, message: string, head: string): unknown {
  const style = errorStyleForHead(head)
  // Anthropic's bodies carry a request id, the ones the server writes by itself too (SPEC §21).
  return style === 'anthropic' ? withRequestId(inputErrorBody(style, status, message)) : inputErrorBody(style, status, message)
}
