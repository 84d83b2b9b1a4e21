/**
 * How the OpenAI Realtime API sends what a misbehaving model does (SPEC §19). Its events carry
 * function arguments as text, so arguments that are not JSON (`invalid_tool_args`, a call cut
 * short) arrive in `response.function_call_arguments.delta/done` exactly as the model wrote them;
 * a tool not offered, arguments that break the schema and two calls sharing one `call_id` arrive
 * as `function_call` items like any other. A cut answer (`truncated`) and a filtered one
 * (`content_filter`) end with `response.done` `status: "incomplete"` and `status_details.reason`
 * `max_output_tokens` / `content_filter`. The Realtime API has no refusal part and shows no
 * reasoning: a refusal is said (text, or speech with its transcript) like any answer, and a
 * reasoning-only or empty answer is a `response.done` `completed` with no output.
 * @module
 */
import type { StreamEvent } from '../../llm/types.js'
import { callArgumentsText } from '../dialect.js'

/** The text a Realtime response says for `event`: its text, or a refusal's words; else `undefined`. */
export function realtimeSaid(event: StreamEvent): string | undefined {
  return event.type === 'text-delta' || event.type === 'refusal-delta' ? event.text : undefined
}

/** A tool call's arguments as the Realtime events carry them: the model's own text, broken or not. */
export function realtimeArguments(call: { args: unknown; argsText?: string }): string {
  return callArgumentsText(call)
}

/** The frame a `malformed` transport fault sends: a server event cut off mid-way, not JSON. */
export const realtimeMalformedFrame = '{"type":"response.output_text.delta","event_id":"event_malformed","delta":"'
