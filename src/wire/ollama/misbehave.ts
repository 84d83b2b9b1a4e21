/**
 * How Ollama sends what a misbehaving model does (SPEC §19): it has no refusal field, so a
 * refusal is the message's text; `function.arguments` is an object, and when the model's tool
 * call does not parse Ollama leaves what the model wrote in the message's `content` and sends
 * no `tool_calls`.
 * @module
 */
import type { Part } from '../../llm/types.js'
import { hasBrokenArguments } from '../dialect.js'

/** The text `part` adds to an Ollama message's `content`, or `undefined` when it adds none. */
export function ollamaContentText(part: Part): string | undefined {
  if (part.type === 'text' || part.type === 'refusal') return part.text
  if (part.type === 'tool-call' && hasBrokenArguments(part)) return part.argsText
  return undefined
}

/** Whether a tool call goes out in `tool_calls` (its arguments are a JSON object). */
export function ollamaSendsCall(call: { argsText?: string }): boolean {
  return !hasBrokenArguments(call)
}
