/**
 * The checks OpenAI's Chat Completions API makes before it answers (SPEC §10.3): required
 * fields, roles, content types, tool results that answer an earlier call, tool names, ranges
 * and types of the sampling fields, and `json_schema` formats. Pure: JSON in, the first
 * violation (or `undefined`) out.
 * @module
 */
import { objectOf, openai, violation, type Violation } from '../violation.js'

const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'] as const
const CONTENT = 'one of a string or array of objects'

/**
 * The first thing OpenAI would reject in a Chat Completions request, or `undefined`.
 * @example
 * validateChat({ model: 'gpt-5', messages: [] })?.code // 'empty_array'
 */
export function validateChat(json: Record<string, unknown>): Violation | undefined {
  if (json.model === undefined || json.model === null || json.model === '') return violation('you must provide a model parameter')
  if (typeof json.model !== 'string') return openai.invalidType('model', 'a string', json.model)
  return (
    checkMessages(json.messages) ??
    checkTools(json.tools) ??
    openai.decimal('temperature', json.temperature, 0, 2) ??
    openai.decimal('top_p', json.top_p, 0, 1) ??
    openai.tokenLimit('max_tokens', json.max_tokens, 1) ??
    openai.tokenLimit('max_completion_tokens', json.max_completion_tokens, 1) ??
    openai.tokenLimit('n', json.n, 1) ??
    openai.boolean('stream', json.stream) ??
    checkResponseFormat(json.response_format)
  )
}

function checkMessages(messages: unknown): Violation | undefined {
  if (messages === undefined) return openai.missing('messages')
  if (!Array.isArray(messages)) return openai.invalidType('messages', 'an array', messages)
  if (messages.length === 0) return openai.emptyArray('messages')
  // Tool calls a `tool` message may answer: those of the assistant message before the run of
  // tool messages it belongs to.
  let answerable: Set<string> | undefined
  for (const [n, raw] of messages.entries()) {
    const at = `messages[${n}]`
    const message = objectOf(raw)
    if (!message) return openai.invalidType(at, 'an object', raw)
    const problem = checkMessage(message, at)
    if (problem) return problem
    if (message.role === 'tool') {
      if (!answerable) {
        return violation("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${n}].role`)
      }
      const id = message.tool_call_id as string
      if (!answerable.has(id)) {
        return violation(`Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`, `messages.[${n}].tool_call_id`)
      }
    } else {
      const calls = message.role === 'assistant' && Array.isArray(message.tool_calls) ? message.tool_calls : []
      answerable = calls.length > 0 ? new Set(calls.map((call) => (call as { id: string }).id)) : undefined
    }
  }
  return undefined
}

function checkMessage(message: Record<string, unknown>, at: string): Violation | undefined {
  const role = message.role
  if (role === undefined) return openai.missing(`${at}.role`)
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) return openai.invalidValue(`${at}.role`, role, ROLES)
  if (message.name !== undefined && typeof message.name !== 'string') return openai.invalidType(`${at}.name`, 'a string', message.name)
  const content = message.content
  if (role === 'assistant') {
    const calls = message.tool_calls
    if (calls !== undefined && calls !== null) {
      const problem = checkToolCalls(calls, `${at}.tool_calls`)
      if (problem) return problem
    }
    const hasCalls = Array.isArray(calls) && calls.length > 0
    const answered = hasCalls || typeof message.refusal === 'string' || message.function_call !== undefined || message.audio !== undefined
    if ((content === undefined || content === null) && !answered) {
      return openai.missing(`${at}.content`)
    }
    return content === undefined || content === null ? undefined : checkContent(content, `${at}.content`, ['text', 'refusal'])
  }
  if (content === undefined || (content === null && role !== 'function')) return openai.missing(`${at}.content`)
  if (role === 'tool') {
    if (message.tool_call_id === undefined) return openai.missing(`${at}.tool_call_id`)
    if (typeof message.tool_call_id !== 'string') return openai.invalidType(`${at}.tool_call_id`, 'a string', message.tool_call_id)
  }
  if (role === 'user') return checkContent(content, `${at}.content`, ['text', 'image_url', 'input_audio', 'file'])
  return checkContent(content, `${at}.content`, ['text'])
}

/** Content: a string, or an array of parts whose `type` is one of `types`. */
function checkContent(content: unknown, at: string, types: readonly string[]): Violation | undefined {
  if (typeof content === 'string') return undefined
  if (!Array.isArray(content)) return openai.invalidType(at, CONTENT, content)
  for (const [n, raw] of content.entries()) {
    const part = objectOf(raw)
    if (!part) return openai.invalidType(`${at}[${n}]`, 'an object', raw)
    if (part.type === undefined) return openai.missing(`${at}[${n}].type`)
    if (typeof part.type !== 'string' || !types.includes(part.type)) return openai.invalidValue(`${at}[${n}].type`, part.type, types)
    if (part.type === 'text' && typeof part.text !== 'string') {
      return openai.absentOrMistyped(`${at}[${n}].text`, 'a string', part.text)
    }
    // Some clients send the URL itself; the decoder reads both.
    if (part.type === 'image_url' && typeof part.image_url !== 'string') {
      const image = objectOf(part.image_url)
      if (!image) return openai.absentOrMistyped(`${at}[${n}].image_url`, 'an object', part.image_url)
      if (typeof image.url !== 'string') return openai.absentOrMistyped(`${at}[${n}].image_url.url`, 'a string', image.url)
    }
  }
  return undefined
}

function checkToolCalls(calls: unknown, at: string): Violation | undefined {
  if (!Array.isArray(calls)) return openai.invalidType(at, 'an array', calls)
  for (const [n, raw] of calls.entries()) {
    const call = objectOf(raw)
    if (!call) return openai.invalidType(`${at}[${n}]`, 'an object', raw)
    if (call.id === undefined) return openai.missing(`${at}[${n}].id`)
    if (typeof call.id !== 'string') return openai.invalidType(`${at}[${n}].id`, 'a string', call.id)
    if (call.type !== undefined && call.type !== 'function' && call.type !== 'custom') return openai.invalidValue(`${at}[${n}].type`, call.type, ['function', 'custom'])
    if (call.type === 'custom') continue
    const fn = objectOf(call.function)
    if (!fn) return openai.absentOrMistyped(`${at}[${n}].function`, 'an object', call.function)
    if (typeof fn.name !== 'string') return openai.absentOrMistyped(`${at}[${n}].function.name`, 'a string', fn.name)
    if (typeof fn.arguments !== 'string') {
      return openai.absentOrMistyped(`${at}[${n}].function.arguments`, 'a string', fn.arguments)
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
    if (tool.type === 'custom') continue
    if (tool.type !== 'function') return tool.type === undefined ? openai.missing(`tools[${n}].type`) : openai.invalidValue(`tools[${n}].type`, tool.type, ['function', 'custom'])
    const fn = objectOf(tool.function)
    if (!fn) return openai.absentOrMistyped(`tools[${n}].function`, 'an object', tool.function)
    const param = `tools[${n}].function.name`
    if (typeof fn.name !== 'string') return openai.absentOrMistyped(param, 'a string', fn.name)
    const problem = openai.toolName(param, fn.name)
    if (problem) return problem
    if (seen.has(fn.name)) return openai.duplicateTool(param, fn.name)
    seen.add(fn.name)
    if (fn.description !== undefined && typeof fn.description !== 'string') return openai.invalidType(`tools[${n}].function.description`, 'a string', fn.description)
    if (fn.parameters !== undefined && !objectOf(fn.parameters)) return openai.invalidType(`tools[${n}].function.parameters`, 'an object', fn.parameters)
  }
  return undefined
}

function checkResponseFormat(value: unknown): Violation | undefined {
  if (value === undefined || value === null) return undefined
  const format = objectOf(value)
  if (!format) return openai.invalidType('response_format', 'an object', value)
  const types = ['text', 'json_object', 'json_schema']
  if (typeof format.type !== 'string' || !types.includes(format.type)) {
    return format.type === undefined ? openai.missing('response_format.type') : openai.invalidValue('response_format.type', format.type, types)
  }
  if (format.type !== 'json_schema') return undefined
  const spec = objectOf(format.json_schema)
  if (!spec) return openai.absentOrMistyped('response_format.json_schema', 'an object', format.json_schema)
  if (typeof spec.name !== 'string') return openai.absentOrMistyped('response_format.json_schema.name', 'a string', spec.name)
  const problem = openai.toolName('response_format.json_schema.name', spec.name)
  if (problem) return problem
  if (!objectOf(spec.schema)) return openai.absentOrMistyped('response_format.json_schema.schema', 'an object', spec.schema)
  return undefined
}
