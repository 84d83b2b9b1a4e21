/**
 * How Gemini sends what a misbehaving model does (SPEC §19) when its wire cannot carry it as
 * the neutral model says it: `functionCall.args` is an object and calls come whole, so a call
 * whose arguments are not a JSON object is never sent — Gemini ends the answer with
 * `finishReason: "MALFORMED_FUNCTION_CALL"` instead (or `MAX_TOKENS` when the answer was cut
 * short); a refusal carries no content, only `finishReason: "SAFETY"`.
 * @module
 */
import type { ModelResponse, Part } from '../../llm/types.js'
import { hasBrokenArguments } from '../dialect.js'

const finishReasons = { stop: 'STOP', 'tool-calls': 'STOP', length: 'MAX_TOKENS', 'content-filter': 'SAFETY', refusal: 'SAFETY' } as const

/** Whether Gemini sends `part` at all: not a refusal, not a call with broken arguments. */
export function geminiSends(part: Part | { type: 'tool-call'; argsText?: string }): boolean {
  if (part.type === 'refusal') return false
  return part.type !== 'tool-call' || !hasBrokenArguments(part)
}

/** The `finishReason` Gemini gives `response`. */
export function geminiFinishReason(response: ModelResponse): string {
  if (response.finishReason === 'length') return 'MAX_TOKENS'
  const malformed = response.content.some((part) => part.type === 'tool-call' && hasBrokenArguments(part))
  return malformed ? 'MALFORMED_FUNCTION_CALL' : (finishReasons[response.finishReason] ?? 'STOP')
}

/** The `finishMessage` Gemini adds for a malformed call, as recorded traffic words it. */
export function geminiFinishMessage(response: ModelResponse): string | undefined {
  const broken = response.content.find((part) => part.type === 'tool-call' && hasBrokenArguments(part))
  if (!broken || broken.type !== 'tool-call' || response.finishReason === 'length') return undefined
  return `Malformed function call: ${broken.name}(${broken.argsText ?? ''})`
}
