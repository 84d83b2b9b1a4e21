/**
 * Small helpers for writing scripts: build a tool call, read what the user last said.
 * @module
 */
import type { ModelRequest, ToolCallPart } from './types.js'
import { argumentError } from '../internal/describe.js'

/**
 * A tool call as a script writes it. The `id` may be left out: the double then gives it one
 * (`call_<call>_<n>`) when it answers, so every answer carries ids a client can correlate.
 */
export type ScriptedToolCall = Omit<ToolCallPart, 'id'> & { id?: string }

/**
 * A reply part asking for tool `name` to be run with `args`.
 * @example
 * scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.'])
 * @throws TypeError when `name` is not a non-empty string or `id` is not a string.
 */
export function toolCall(name: string, args: unknown = {}, id?: string): ScriptedToolCall {
  if (typeof name !== 'string' || name === '') throw argumentError('toolCall', 'name', 'a non-empty string', name)
  if (id !== undefined && (typeof id !== 'string' || id === '')) {
    throw argumentError('toolCall', 'id', 'a non-empty string', id)
  }
  return id === undefined ? { type: 'tool-call', name, args } : { type: 'tool-call', id, name, args }
}

/**
 * A scripted call of a freeform custom tool (OpenAI Responses `type: "custom"`, such as Codex's
 * `exec`): `input` is the tool's raw text input, not JSON arguments. Served as a
 * `custom_tool_call` output item; a plain {@link toolCall} to a tool the request declares custom
 * is served the same way.
 * @example
 * scriptedLLM([customToolCall('exec', 'const r = await tools.exec_command({ cmd: "cat notes.txt" }); text(r.output)'), 'Done.'])
 * @throws {TypeError} `name` is not a non-empty string, or `input` is not a string.
 */
export function customToolCall(name: string, input: string, id?: string): ScriptedToolCall {
  if (typeof name !== 'string' || name === '') throw argumentError('customToolCall', 'name', 'a non-empty string', name)
  if (typeof input !== 'string') throw argumentError('customToolCall', 'input', "a string (the custom tool's raw input)", input)
  return toolCall(name, input, id)
}

/**
 * The text of the last `user` message of a request, its text parts joined by a newline;
 * `''` when there is none.
 * @example
 * scriptedLLM(req => `you said: ${lastUserText(req)}`)
 */
export function lastUserText(req: ModelRequest): string {
  const messages = Array.isArray(req?.messages) ? req.messages : []
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]
    if (message?.role !== 'user') continue
    const content = Array.isArray(message.content) ? message.content : []
    // A loop, not filter/map/join: a scripted answer reads this on every call, and the usual one
    // text part is returned as it is, with no arrays or closures made for it.
    let text: string | undefined
    for (let j = 0; j < content.length; j++) {
      const part = content[j]
      if (part?.type !== 'text' || typeof part.text !== 'string') continue
      text = text === undefined ? part.text : `${text}\n${part.text}`
    }
    return text ?? ''
  }
  return ''
}

/**
 * A deep copy that survives values `structuredClone` rejects (functions, class instances with
 * private state): those fall back to their JSON form. @internal
 */
export function deepCopy<T>(value: T): T {
  try {
    return structuredClone(value)
  } catch {
    const json = JSON.stringify(value)
    return json === undefined ? value : (JSON.parse(json) as T)
  }
}

/** Requests whose maker hands them over for good (see {@link handOver}). */
const handedOver = new WeakSet<object>()

/**
 * Marks `req` as handed over: its maker (a FakeProxy, for a request it decoded) never changes
 * it and shows others only copies, so a double may record it as it is rather than copy it
 * again. @internal
 */
export function handOver<T extends object>(req: T): T {
  handedOver.add(req)
  return req
}

/** Whether `value` was {@link handOver handed over}. @internal */
export function isHandedOver(value: unknown): boolean {
  return typeof value === 'object' && value !== null && handedOver.has(value)
}
