/**
 * The checks OpenAI's Responses API makes before it answers (SPEC §10.3). Pure over the request
 * JSON and what the proxy remembers of earlier responses (`previous_response_id`,
 * `item_reference`), which `remembered` looks up.
 * @module
 */
import type { Message } from '../../llm/types.js'
import { objectOf, openai, violation, type Violation } from '../violation.js'

const ROLES = ['assistant', 'system', 'developer', 'user'] as const

/** What the proxy remembers under a response or item id: the messages it stands for. */
export type RememberedLookup = (id: string) => readonly Message[] | undefined

/**
 * The first thing OpenAI would reject in a Responses request, or `undefined`.
 * @example
 * validateResponses({ model: 'gpt-5', input: [] }, () => undefined)?.code // 'empty_array'
 */
export function validateResponses(json: Record<string, unknown>, remembered: RememberedLookup): Violation | undefined {
  if (json.model === undefined || json.model === null || json.model === '') return openai.missing('model')
  if (typeof json.model !== 'string') return openai.invalidType('model', 'a string', json.model)
  const previous = json.previous_response_id
  if (previous !== undefined && previous !== null && typeof previous !== 'string') return openai.invalidType('previous_response_id', 'a string', previous)
  const earlier = typeof previous === 'string' ? remembered(previous) : []
  if (earlier === undefined) return violation(`Previous response with id '${previous}' not found.`, 'previous_response_id', 'previous_response_not_found')
  if (json.instructions !== undefined && json.instructions !== null && typeof json.instructions !== 'string') {
    return openai.invalidType('instructions', 'a string', json.instructions)
  }
  return (
    checkInput(json.input, callIdsOf(earlier), remembered) ??
    checkTools(json.tools) ??
    openai.decimal('temperature', json.temperature, 0, 2) ??
    openai.decimal('top_p', json.top_p, 0, 1) ??
    openai.tokenLimit('max_output_tokens', json.max_output_tokens, 16) ??
    openai.boolean('stream', json.stream) ??
    checkFormat(json.text)
  )
}

function callIdsOf(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>()
  for (const message of messages) for (const part of message.content) if (part.type === 'tool-call') ids.add(part.id)
  return ids
}

function checkInput(input: unknown, calls: Set<string>, remembered: RememberedLookup): Violation | undefined {
  if (input === undefined) return openai.missing('input')
  if (typeof input === 'string') return undefined
  if (!Array.isArray(input)) return openai.invalidType('input', 'one of a string or array of input items', input)
  if (input.length === 0) return openai.emptyArray('input')
  for (const [n, raw] of input.entries()) {
    const at = `input[${n}]`
    const item = objectOf(raw)
    if (!item) return openai.invalidType(at, 'an object', raw)
    const problem = checkItem(item, at)
    if (problem) return problem
    if (item.type === 'function_call') calls.add(item.call_id as string)
    else if (item.type === 'item_reference' && typeof item.id === 'string') for (const id of callIdsOf(remembered(item.id) ?? [])) calls.add(id)
    else if (item.type === 'function_call_output' && !calls.has(item.call_id as string)) {
      return violation(`No tool call found for function call output with call_id ${String(item.call_id)}.`, 'input')
    }
  }
  return undefined
}

function checkItem(item: Record<string, unknown>, at: string): Violation | undefined {
  const string = (field: string): Violation | undefined =>
    typeof item[field] === 'string' ? undefined : item[field] === undefined ? openai.missing(`${at}.${field}`) : openai.invalidType(`${at}.${field}`, 'a string', item[field])
  if (item.type === 'function_call') return string('call_id') ?? string('name') ?? string('arguments')
  if (item.type === 'function_call_output') {
    if (typeof item.output !== 'string' && !Array.isArray(item.output)) {
      return openai.absentOrMistyped(`${at}.output`, 'one of a string or array of objects', item.output)
    }
    return string('call_id')
  }
  if (item.type === 'item_reference') return string('id')
  // Other typed items (reasoning, built-in tool calls …) are not checked here.
  if (item.type !== undefined && item.type !== 'message') return typeof item.type === 'string' ? undefined : openai.invalidType(`${at}.type`, 'a string', item.type)
  if (item.role === undefined) return openai.missing(`${at}.role`)
  if (typeof item.role !== 'string' || !(ROLES as readonly string[]).includes(item.role)) return openai.invalidValue(`${at}.role`, item.role, ROLES)
  const content = item.content
  if (content === undefined) return openai.missing(`${at}.content`)
  if (typeof content === 'string') return undefined
  if (!Array.isArray(content)) return openai.invalidType(`${at}.content`, 'one of a string or array of objects', content)
  for (const [n, raw] of content.entries()) {
    const part = objectOf(raw)
    if (!part) return openai.invalidType(`${at}.content[${n}]`, 'an object', raw)
    if (typeof part.type !== 'string') return openai.absentOrMistyped(`${at}.content[${n}].type`, 'a string', part.type)
    if ((part.type === 'input_text' || part.type === 'output_text' || part.type === 'text') && typeof part.text !== 'string') {
      return openai.absentOrMistyped(`${at}.content[${n}].text`, 'a string', part.text)
    }
  }
  return undefined
}

function checkTools(tools: unknown): Violation | undefined {
  if (tools === undefined || tools === null) return undefined
  if (!Array.isArray(tools)) return openai.invalidType('tools', 'an array', tools)
  const seen = new Set<string>()
  for (const [n, raw] of tools.entries()) {
    const tool = objectOf(raw)
    if (!tool) return openai.invalidType(`tools[${n}]`, 'an object', raw)
    if (typeof tool.type !== 'string') return openai.absentOrMistyped(`tools[${n}].type`, 'a string', tool.type)
    // Built-in tools (web_search, file_search …) carry no name of the caller's.
    if (tool.type !== 'function' && tool.type !== 'custom') continue
    const param = `tools[${n}].name`
    if (typeof tool.name !== 'string') return openai.absentOrMistyped(param, 'a string', tool.name)
    const problem = openai.toolName(param, tool.name)
    if (problem) return problem
    if (seen.has(tool.name)) return openai.duplicateTool(param, tool.name)
    seen.add(tool.name)
    if (tool.parameters !== undefined && tool.parameters !== null && !objectOf(tool.parameters)) return openai.invalidType(`tools[${n}].parameters`, 'an object', tool.parameters)
  }
  return undefined
}

function checkFormat(text: unknown): Violation | undefined {
  if (text === undefined || text === null) return undefined
  const options = objectOf(text)
  if (!options) return openai.invalidType('text', 'an object', text)
  if (options.format === undefined || options.format === null) return undefined
  const format = objectOf(options.format)
  if (!format) return openai.invalidType('text.format', 'an object', options.format)
  const types = ['text', 'json_object', 'json_schema']
  if (typeof format.type !== 'string' || !types.includes(format.type)) {
    return format.type === undefined ? openai.missing('text.format.type') : openai.invalidValue('text.format.type', format.type, types)
  }
  if (format.type !== 'json_schema') return undefined
  if (typeof format.name !== 'string') return openai.absentOrMistyped('text.format.name', 'a string', format.name)
  const problem = openai.toolName('text.format.name', format.name)
  if (problem) return problem
  if (!objectOf(format.schema)) return openai.absentOrMistyped('text.format.schema', 'an object', format.schema)
  return undefined
}
