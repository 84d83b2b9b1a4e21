/**
 * How Gemini Live sends what a misbehaving model does (SPEC §19). As over HTTP, a call whose
 * arguments are not a JSON object is never sent — Live ends the turn with `turnComplete` and
 * `turnCompleteReason: "MALFORMED_FUNCTION_CALL"`; a refusal and a filtered answer carry no
 * content and end with `turnCompleteReason: "RESPONSE_REJECTED"`; reasoning arrives as `thought`
 * parts, so a reasoning-only answer has no text a client reads; a tool not offered, arguments
 * that break the schema and two calls sharing one id arrive as `toolCall` like any other; a cut
 * answer is the text so far, then `turnComplete` (Live reports no token limit).
 * @module
 */
import type { ModelResponse, StreamEvent } from '../../llm/types.js'
import { hasBrokenArguments } from '../dialect.js'

/** Whether Live sends `event` as it is (not a call with broken arguments, not a refusal). */
export function liveSends(event: StreamEvent): boolean {
  if (event.type === 'refusal-delta') return false
  return event.type !== 'tool-call' || !hasBrokenArguments(event)
}

/** The `turnCompleteReason` of a turn that ended as `response` did, if it has one. */
export function liveTurnCompleteReason(response: ModelResponse): 'MALFORMED_FUNCTION_CALL' | 'RESPONSE_REJECTED' | undefined {
  if (response.content.some((part) => part.type === 'tool-call' && hasBrokenArguments(part))) return 'MALFORMED_FUNCTION_CALL'
  if (response.finishReason === 'refusal' || response.finishReason === 'content-filter') return 'RESPONSE_REJECTED'
  return undefined
}

/** The frame a `malformed` transport fault sends: a server message cut off mid-way, not JSON. */
export const liveMalformedFrame = '{"serverContent":{"modelTurn":{"parts":[{"text":"'
