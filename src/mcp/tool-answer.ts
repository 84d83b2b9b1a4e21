/**
 * How a tool's `responses` answers one call: MockAgent's resolution rules (SPEC §3) over the
 * call's arguments, then the value turned into the tool result MCP sends.
 * @module
 */
import { isError } from '../agent/envelope.js'
import { isPlainObject, matchTask, nextInList } from '../agent/resolve.js'
import type { ToolEntry } from './tool-set.js'
import type { McpCallContext, McpToolResult } from './types.js'

/**
 * The value `responses` gives for this call: a function's result (a throw is its `Error`), the
 * map entry whose key is a substring of the arguments' JSON, the next list item, or the value.
 * @throws {Error} when the test's own `responses` cannot answer (no map key matched and no
 * `'*'`, an empty or exhausted list): a mistake in the test, not an answer of the tool.
 */
export async function resolveToolValue(entry: ToolEntry, args: unknown, call: McpCallContext): Promise<unknown> {
  const responses = entry.definition.responses
  if (typeof responses === 'function') {
    try {
      return await responses(args, call)
    } catch (error) {
      return isError(error) ? error : new Error(String(error))
    }
  }
  if (isPlainObject(responses) && !isToolResult(responses)) {
    return matchTask(responses, JSON.stringify(args) ?? '', entry.cursor.owner, 'arguments')
  }
  if (Array.isArray(responses)) return nextInList(responses, entry.cursor)
  return responses
}

/**
 * The tool result a value becomes: an `Error` an `isError` result with its message; a result
 * object (with a `content` list) itself; `undefined` an empty result; a string a text block; a
 * plain object its JSON as text and as `structuredContent`; anything else its JSON as text.
 * @throws {TypeError} the value cannot be written as JSON.
 */
export function toToolResult(value: unknown): McpToolResult {
  if (isError(value)) return { content: [{ type: 'text', text: value.message }], isError: true }
  if (value === undefined) return { content: [] }
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] }
  if (isToolResult(value)) return value
  const text = JSON.stringify(value)
  if (text === undefined) throw new TypeError(`a tool answer must be JSON, got ${typeof value}`)
  if (isPlainObject(value)) return { content: [{ type: 'text', text }], structuredContent: value }
  return { content: [{ type: 'text', text }] }
}

/** Whether `value` is already a tool result (an object with a `content` list). */
export function isToolResult(value: unknown): value is McpToolResult {
  return isPlainObject(value) && Array.isArray(value.content)
}
