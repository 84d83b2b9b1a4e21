/**
 * The checks Anthropic's Messages API makes before it answers (SPEC §10.3), in its own words
 * (`messages.0.role: Input should be 'user' or 'assistant'`). Pure: JSON in, the first
 * violation (or `undefined`) out.
 * @module
 */
import { TOOL_NAME, anthropic, objectOf, violation, type Violation } from '../violation.js'

/**
 * The first thing Anthropic would reject in a Messages request, or `undefined`.
 * @example
 * validateAnthropic({ model: 'claude', messages: [] })?.message // 'max_tokens: Field required'
 */
export function validateAnthropic(json: Record<string, unknown>): Violation | undefined {
  const required = (field: string, kind: 'string' | 'integer' | 'list'): Violation | undefined =>
    json[field] === undefined ? anthropic.missing(field) : anthropic.expect(field, json[field], kind)
  return (
    required('model', 'string') ??
    required('max_tokens', 'integer') ??
    ((json.max_tokens as number) < 1 ? anthropic.at('max_tokens', 'Input should be greater than or equal to 1') : undefined) ??
    required('messages', 'list') ??
    checkMessages(json.messages as unknown[]) ??
    checkSystem(json.system) ??
    checkTemperature(json.temperature) ??
    optional('stream', json.stream, 'boolean') ??
    checkTools(json.tools) ??
    checkOutputFormat(json)
  )
}

function optional(param: string, value: unknown, kind: 'boolean' | 'string' | 'number'): Violation | undefined {
  return value === undefined ? undefined : anthropic.expect(param, value, kind)
}

function checkMessages(messages: unknown[]): Violation | undefined {
  if (messages.length === 0) return violation('messages: at least one message is required', 'messages')
  let previous: Record<string, unknown> | undefined
  for (const [n, raw] of messages.entries()) {
    const at = `messages.${n}`
    const message = objectOf(raw)
    if (!message) return anthropic.expect(at, raw, 'dictionary')
    if (message.role !== 'user' && message.role !== 'assistant') {
      return message.role === undefined ? anthropic.missing(`${at}.role`) : anthropic.at(`${at}.role`, "Input should be 'user' or 'assistant'")
    }
    const problem = checkContent(message.content, `${at}.content`) ?? checkToolResults(message, previous, at)
    if (problem) return problem
    previous = message
  }
  return undefined
}

function checkContent(content: unknown, at: string): Violation | undefined {
  if (content === undefined) return anthropic.missing(at)
  if (typeof content === 'string') return undefined
  if (!Array.isArray(content)) return anthropic.expect(at, content, 'list')
  for (const [n, raw] of content.entries()) {
    const block = objectOf(raw)
    if (!block) return anthropic.expect(`${at}.${n}`, raw, 'dictionary')
    const problem = checkBlock(block, `${at}.${n}`)
    if (problem) return problem
  }
  return undefined
}

function checkBlock(block: Record<string, unknown>, at: string): Violation | undefined {
  const field = (name: string, kind: 'string' | 'dictionary'): Violation | undefined =>
    block[name] === undefined ? anthropic.missing(`${at}.${name}`) : anthropic.expect(`${at}.${name}`, block[name], kind)
  if (typeof block.type !== 'string') return block.type === undefined ? anthropic.at(at, "Unable to extract tag using discriminator 'type'") : anthropic.expect(`${at}.type`, block.type, 'string')
  switch (block.type) {
    case 'text':
      return field('text', 'string')
    case 'tool_use':
      return field('id', 'string') ?? field('name', 'string') ?? field('input', 'dictionary')
    case 'tool_result':
      if (block.content !== undefined && typeof block.content !== 'string' && !Array.isArray(block.content)) return anthropic.expect(`${at}.content`, block.content, 'list')
      return field('tool_use_id', 'string') ?? optional(`${at}.is_error`, block.is_error, 'boolean')
    case 'thinking':
      return field('thinking', 'string')
    case 'image':
      return field('source', 'dictionary')
    default:
      // Other block types (documents, server tools …) are not checked here.
      return undefined
  }
}

/** Each `tool_result` must answer a `tool_use` of the message right before it. */
function checkToolResults(message: Record<string, unknown>, previous: Record<string, unknown> | undefined, at: string): Violation | undefined {
  if (!Array.isArray(message.content)) return undefined
  const uses = new Set<string>()
  if (previous?.role === 'assistant' && Array.isArray(previous.content)) {
    for (const block of previous.content) if ((block as { type?: unknown }).type === 'tool_use') uses.add((block as { id: string }).id)
  }
  for (const [n, block] of (message.content as Record<string, unknown>[]).entries()) {
    if (block.type !== 'tool_result') continue
    const id = block.tool_use_id as string
    if (message.role !== 'user' || !uses.has(id)) {
      return violation(
        `${at}.content.${n}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        `${at}.content.${n}`,
      )
    }
  }
  return undefined
}

function checkSystem(system: unknown): Violation | undefined {
  if (system === undefined || typeof system === 'string') return undefined
  if (!Array.isArray(system)) return anthropic.expect('system', system, 'list')
  for (const [n, raw] of system.entries()) {
    const block = objectOf(raw)
    if (!block) return anthropic.expect(`system.${n}`, raw, 'dictionary')
    if (block.type !== 'text') return anthropic.at(`system.${n}.type`, "Input should be 'text'")
    if (typeof block.text !== 'string') return block.text === undefined ? anthropic.missing(`system.${n}.text`) : anthropic.expect(`system.${n}.text`, block.text, 'string')
  }
  return undefined
}

function checkTemperature(value: unknown): Violation | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value)) return anthropic.expect('temperature', value, 'number')
  if (value < 0) return anthropic.at('temperature', 'Input should be greater than or equal to 0')
  if (value > 1) return anthropic.at('temperature', 'Input should be less than or equal to 1')
  return undefined
}

function checkTools(tools: unknown): Violation | undefined {
  if (tools === undefined) return undefined
  if (!Array.isArray(tools)) return anthropic.expect('tools', tools, 'list')
  const seen = new Set<string>()
  for (const [n, raw] of tools.entries()) {
    const tool = objectOf(raw)
    if (!tool) return anthropic.expect(`tools.${n}`, raw, 'dictionary')
    // Server tools (`web_search_20250305` …) have fixed names of Anthropic's.
    const custom = tool.type === undefined || tool.type === null || tool.type === 'custom'
    const at = custom ? `tools.${n}.custom` : `tools.${n}`
    if (typeof tool.name !== 'string') return tool.name === undefined ? anthropic.missing(`${at}.name`) : anthropic.expect(`${at}.name`, tool.name, 'string')
    if (custom && !TOOL_NAME.test(tool.name)) return anthropic.at(`${at}.name`, `String should match pattern '${TOOL_NAME.source}'`)
    if (seen.has(tool.name)) return violation('tools: Tool names must be unique.', 'tools')
    seen.add(tool.name)
    if (custom && tool.input_schema === undefined) return anthropic.missing(`${at}.input_schema`)
    if (custom && !objectOf(tool.input_schema)) return anthropic.expect(`${at}.input_schema`, tool.input_schema, 'dictionary')
  }
  return undefined
}

function checkOutputFormat(json: Record<string, unknown>): Violation | undefined {
  const [param, value] = json.output_format !== undefined ? ['output_format', json.output_format] : ['output_config.format', objectOf(json.output_config)?.format]
  if (value === undefined || value === null) return undefined
  const format = objectOf(value)
  if (!format) return anthropic.expect(param, value, 'dictionary')
  if (format.type === 'json_schema' && !objectOf(format.schema)) {
    return format.schema === undefined ? anthropic.missing(`${param}.schema`) : anthropic.expect(`${param}.schema`, format.schema, 'dictionary')
  }
  return undefined
}
