/**
 * Anthropic Messages (`POST /v1/messages`), JSON and SSE, per `reference/wire-protocols.md` §4.
 * @module
 */
import { estimateInputTokens } from '../../llm/usage.js'
import type { Message, ModelRequest, ModelResponse, Part, ToolChoice, ToolDefinition, Usage } from '../../llm/types.js'
import {
  appendPart,
  argumentsJson,
  decodeToolList,
  numberOr,
  optionalString,
  parseArguments,
  record,
  requireArray,
  requireString,
  splitArguments,
  textOf,
  toolNameFor,
  type EncodeContext,
  type ModelDialect,
  type EmitFrame,
  type SseFrame,
  type StreamEncoder,
} from '../dialect.js'
import { wireId } from '../wire-ids.js'
import { jsonStringContent } from '../../internal/json-string.js'
import { anthropicProviderError } from './errors.js'
import { anthropicOutputLimitError } from './limits.js'
import { anthropicLayout } from './cache.js'
import { validateAnthropic } from './validate.js'
import { betasOf } from '../validate.js'

/** The Anthropic Messages dialect. */
export const anthropicMessages: ModelDialect = {
  id: 'anthropic-messages',
  kind: 'model',
  errorStyle: 'anthropic',
  providerError: anthropicProviderError,
  contextTooLongMessage: (tokens, window) => `prompt is too long: ${tokens} tokens > ${window} maximum`,
  outputLimitError: anthropicOutputLimitError,
  validate: (json, _memory, headers) => validateAnthropic(json, betasOf(headers['anthropic-beta'])),
  prompt: { layout: (json) => anthropicLayout(json) },
  needs: ['anthropic_messages'],
  toolCallIds: 'anthropic-tool-use',
  decode,
  encodeJson,
  encodeStream,
  // As in real traffic, the error event carries the request id the `request-id` header gave.
  streamError: (message, _framesSent, context) => [
    { event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'api_error', message }, request_id: wireId('anthropic-request', context.id) }) },
  ],
}

/** The id of the `tool_use` block answering a forced `json` tool. */
function jsonToolId(context: EncodeContext): string {
  return wireId('anthropic-tool-use', `json/${context.id}`)
}

/**
 * Anthropic's usage counters, serving tier and inference region: `input_tokens` is the prompt's uncached rest
 * (after the last breakpoint); cache reads and writes are counted apart, writes split by TTL.
 */
function usageOf(usage: Usage): Record<string, unknown> {
  const { read, write, write1h, uncached } = cacheCounts(usage)
  return {
    input_tokens: uncached,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: write - write1h, ephemeral_1h_input_tokens: write1h },
    output_tokens: usage.outputTokens,
    service_tier: 'standard',
    // As recorded traffic reports it when the request names no region (SPEC §21).
    inference_geo: 'not_available',
  }
}

/** The cache counts of a neutral usage, and the input left uncached. */
function cacheCounts(usage: Usage): { read: number; write: number; write1h: number; uncached: number } {
  const read = usage.cacheReadTokens ?? 0
  const write = usage.cacheWriteTokens ?? 0
  return { read, write, write1h: usage.cacheWrite1hTokens ?? 0, uncached: usage.inputTokens - read - write }
}

/** The tool the AI SDK forces for structured output on model ids it does not know. */
const JSON_TOOL = 'json'

/**
 * Whether the client asked for structured output through a forced `json` tool: then the answer
 * must be a `tool_use` block named `json` holding the object (§4.4).
 */
function forcedJsonTool(json: Record<string, unknown>): Record<string, unknown> | undefined {
  const tools = Array.isArray(json.tools) ? json.tools.map(record) : []
  const choice = record(json.tool_choice)
  const forced = choice.type === 'any' || (choice.type === 'tool' && choice.name === JSON_TOOL)
  return forced && tools.length === 1 && tools[0].name === JSON_TOOL ? tools[0] : undefined
}

function decode(json: Record<string, unknown>): ModelRequest {
  const model = requireString(json, 'model')
  const messages: Message[] = []
  const reminders: string[] = []
  requireArray(json, 'messages').forEach((raw, n) => decodeMessage(record(raw), `messages.${n}`, messages, reminders))
  const request: ModelRequest = { model, messages, stream: json.stream === true }
  // A `role: "system"` message inside `messages` (Claude Code's, under a beta; SPEC §17) is
  // system text, after the top-level system prompt: never a user turn.
  const inline = requireArray(json, 'messages')
    .map(record)
    .filter((message) => message.role === 'system')
    .map((message) => (typeof message.content === 'string' ? message.content : textOf(message.content)))
  const system = [textOf(json.system), ...inline, ...reminders].filter((text) => text !== '').join('\n\n')
  if (system !== '') request.system = system
  const jsonTool = forcedJsonTool(json)
  const format = record(record(json.output_config).format ?? json.output_format)
  if (jsonTool) request.responseFormat = { type: 'json', schema: jsonTool.input_schema }
  else if (format.type === 'json_schema') request.responseFormat = { type: 'json', schema: format.schema }
  if (!jsonTool) {
    const tools = decodeTools(json.tools)
    if (tools.length > 0) request.tools = tools
    const toolChoice = decodeToolChoice(record(json.tool_choice))
    if (toolChoice) request.toolChoice = toolChoice
  }
  const maxTokens = numberOr(json.max_tokens)
  if (maxTokens !== undefined) request.maxTokens = maxTokens
  const temperature = numberOr(json.temperature)
  if (temperature !== undefined) request.temperature = temperature
  return request
}

/**
 * A text block Claude Code adds to a user turn for context (`<system-reminder>…</system-reminder>`,
 * whole): system text, so `lastUserText()` is the user's prompt (SPEC §17).
 */
const SYSTEM_REMINDER = /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/

function decodeMessage(message: Record<string, unknown>, at: string, messages: Message[], reminders: string[]): void {
  // Decoded into the request's system text (see decode).
  if (message.role === 'system') return
  const role = message.role === 'assistant' ? 'assistant' : 'user'
  if (typeof message.content === 'string') {
    messages.push({ role, content: [{ type: 'text', text: message.content }] })
    return
  }
  // Tool results travel in user messages on this wire; the neutral model gives them a `tool`
  // message of their own, ahead of whatever else the user message says.
  const parts: Part[] = []
  const blocks = Array.isArray(message.content) ? message.content : []
  for (const [n, raw] of blocks.entries()) {
    const block = record(raw)
    if (block.type === 'tool_result') {
      const id = optionalString(block.tool_use_id, `${at}.content.${n}.tool_use_id`)
      const name = toolNameFor(messages, id)
      const result = typeof block.content === 'string' || block.content === undefined ? (block.content ?? '') : toolResultOf(block.content)
      appendPart(messages, 'tool', { type: 'tool-result', id, ...(name ? { name } : {}), result, ...(block.is_error === true ? { isError: true } : {}) })
      continue
    }
    if (role === 'user' && block.type === 'text' && typeof block.text === 'string' && SYSTEM_REMINDER.test(block.text)) {
      reminders.push(block.text)
      continue
    }
    const part = decodeBlock(block, `${at}.content.${n}`)
    if (part) parts.push(part)
  }
  if (parts.length > 0 || role === 'assistant') messages.push({ role, content: parts })
}

/** A tool result's blocks: their text when all are text, else the blocks as sent. */
function toolResultOf(content: unknown): unknown {
  const blocks = Array.isArray(content) ? content.map(record) : []
  return blocks.every((block) => block.type === 'text') ? textOf(blocks) : content
}

function decodeBlock(block: Record<string, unknown>, at: string): Part | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: optionalString(block.text, `${at}.text`) }
    case 'tool_use':
      return { type: 'tool-call', id: optionalString(block.id, `${at}.id`), name: optionalString(block.name, `${at}.name`), args: parseArguments(block.input) }
    case 'thinking':
      return { type: 'reasoning', text: optionalString(block.thinking, `${at}.thinking`) }
    case 'image': {
      const source = record(block.source)
      if (source.type === 'url') return { type: 'image', url: optionalString(source.url, `${at}.source.url`) }
      return { type: 'image', ...(typeof source.media_type === 'string' ? { mediaType: source.media_type } : {}), data: optionalString(source.data, `${at}.source.data`) }
    }
    default:
      return undefined
  }
}

function decodeTools(tools: unknown): ToolDefinition[] {
  return decodeToolList(tools, (tool) => ({ name: tool.name, description: tool.description, schema: tool.input_schema }))
}

function decodeToolChoice(choice: Record<string, unknown>): ToolChoice | undefined {
  if (choice.type === 'auto' || choice.type === 'none') return choice.type
  if (choice.type === 'any') return 'required'
  if (choice.type === 'tool' && typeof choice.name === 'string') return { type: 'tool', name: choice.name }
  return undefined
}

const stopReasons = { stop: 'end_turn', 'tool-calls': 'tool_use', length: 'max_tokens', 'content-filter': 'refusal', refusal: 'refusal' } as const

/** The answer for a forced `json` tool: the JSON text becomes the tool's input. */
function asJsonToolAnswer(response: ModelResponse, context: EncodeContext): ModelResponse {
  if (response.content.some((part) => part.type === 'tool-call')) return response
  const text = response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
  return {
    ...response,
    content: [{ type: 'tool-call', id: jsonToolId(context), name: JSON_TOOL, args: parseArguments(text) }],
    finishReason: 'tool-calls',
  }
}

function encodeJson(response: ModelResponse, context: EncodeContext): unknown {
  const answer = forcedJsonTool(context.json) ? asJsonToolAnswer(response, context) : response
  return {
    id: answer.id ?? wireId('anthropic-message', context.id),
    type: 'message',
    role: 'assistant',
    model: answer.model ?? context.request.model,
    content: answer.content.flatMap(encodeBlock),
    stop_reason: stopReasons[answer.finishReason] ?? 'end_turn',
    stop_sequence: null,
    usage: usageOf(answer.usage),
  }
}

function encodeBlock(part: Part): unknown[] {
  // A refusal's words are text; `stop_reason: "refusal"` says what they are.
  if (part.type === 'text' || part.type === 'refusal') return [{ type: 'text', text: part.text }]
  if (part.type === 'tool-call') return [{ type: 'tool_use', id: part.id, name: part.name, input: toolInput(part.args) }]
  if (part.type === 'reasoning') return [{ type: 'thinking', thinking: part.text, signature: 'agent-doubles' }]
  return []
}

/** `tool_use.input` must be an object on the wire. */
function toolInput(args: unknown): unknown {
  const parsed = parseArguments(args)
  return parsed !== null && typeof parsed === 'object' ? parsed : {}
}

/** Frames that are the same in every stream. */
const PING: SseFrame = { event: 'ping', data: '{"type":"ping"}' }
const MESSAGE_STOP: SseFrame = { event: 'message_stop', data: '{"type":"message_stop"}' }

function blockStop(index: number): SseFrame {
  return { event: 'content_block_stop', data: `{"type":"content_block_stop","index":${index}}` }
}

/**
 * The frames every text stream sends once — its start, its block's start, its end — written as
 * text: serialising their nested objects cost a stream more than all its deltas' framing. Each
 * is the exact JSON `JSON.stringify` gives; counts a brain reported that are not integers still
 * go through it.
 */
function messageStartData(id: string, model: string, usage: Usage): string {
  const { read, write, write1h, uncached } = cacheCounts(usage)
  return (
    `{"type":"message_start","message":{"id":"${id}","type":"message","role":"assistant","model":${JSON.stringify(model)},` +
    `"content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":${uncached},"cache_creation_input_tokens":${write},` +
    `"cache_read_input_tokens":${read},"cache_creation":{"ephemeral_5m_input_tokens":${write - write1h},"ephemeral_1h_input_tokens":${write1h}},"output_tokens":0,"service_tier":"standard","inference_geo":"not_available"}}}`
  )
}

function blockStartData(index: number, kind: 'text' | 'thinking'): string {
  const block = kind === 'text' ? '{"type":"text","text":""}' : '{"type":"thinking","thinking":"","signature":""}'
  return `{"type":"content_block_start","index":${index},"content_block":${block}}`
}

function messageDeltaData(stopReason: string, usage: Usage): string {
  const { read, write, uncached } = cacheCounts(usage)
  return (
    `{"type":"message_delta","delta":{"stop_reason":"${stopReason}","stop_sequence":null},"usage":{"input_tokens":${uncached},` +
    `"cache_creation_input_tokens":${write},"cache_read_input_tokens":${read},"output_tokens":${usage.outputTokens}}}`
  )
}

function encodeStream(context: EncodeContext, emit: EmitFrame): StreamEncoder {
  const frame = (data: Record<string, unknown>): SseFrame => ({ event: String(data.type), data: JSON.stringify(data) })
  const jsonTool = forcedJsonTool(context.json) !== undefined
  let index = -1
  let open: 'text' | 'thinking' | undefined
  /** The open text or thinking block's delta frame, filled anew with each delta's text. */
  const delta: SseFrame = { event: 'content_block_delta', before: '', data: '', after: '"}}' }
  let jsonText = ''

  // The brain's own count comes with `finish`; until then the neutral estimate (what a
  // ScriptedLLM reports by default), so clients reading usage here see a real number.
  const startUsage = context.promptUsage ?? { inputTokens: estimateInputTokens(context.request), outputTokens: 0 }
  emit({ event: 'message_start', data: messageStartData(wireId('anthropic-message', context.id), context.request.model, startUsage) })
  const close = (): void => {
    if (open === 'thinking') emit(frame({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'agent-doubles' } }))
    if (open) emit(blockStop(index))
    open = undefined
  }
  let sentToolBlock = false
  const toolBlock = (id: string, name: string, args: unknown, argsText?: string): void => {
    sentToolBlock = true
    close()
    index++
    emit(frame({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } }))
    // Arguments the model wrote itself (cut short, or not JSON) stream as they are, as
    // fine-grained tool streaming sends them; the JSON answer can only carry an object.
    for (const fragment of ['', ...splitArguments(argsText ?? argumentsJson(toolInput(args)))]) {
      emit(frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: fragment } }))
    }
    emit(blockStop(index))
  }

  return (event) => {
    if (event.type === 'text-delta' && jsonTool) {
      jsonText += event.text
    } else if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
      const kind = event.type === 'reasoning-delta' ? 'thinking' : 'text'
      if (open !== kind) {
        close()
        index++
        open = kind
        delta.before = `{"type":"content_block_delta","index":${index},"delta":{"type":"${kind}_delta","${kind}":"`
        emit({ event: 'content_block_start', data: blockStartData(index, kind) })
        if (index === 0) emit(PING)
      }
      // The hot path: only the text is serialised per delta (most need no escaping, and no
      // copy); the rest of its line, quotes included, is the block's.
      delta.data = jsonStringContent(event.text)
      emit(delta)
    } else if (event.type === 'tool-call') {
      toolBlock(event.id, event.name, event.args, event.argsText)
    } else if (event.type === 'finish') {
      close()
      let reason = event.response.finishReason
      // Structured output through the forced tool: the text becomes its input, whatever
      // reasoning blocks came before.
      if (jsonTool && !sentToolBlock) {
        toolBlock(jsonToolId(context), JSON_TOOL, parseArguments(jsonText))
        reason = 'tool-calls'
      }
      const usage = event.response.usage
      const stopReason = stopReasons[reason] ?? 'end_turn'
      const counts = [usage.inputTokens, usage.outputTokens, usage.cacheReadTokens ?? 0, usage.cacheWriteTokens ?? 0]
      if (counts.every(Number.isSafeInteger)) {
        emit({ event: 'message_delta', data: messageDeltaData(stopReason, usage) })
      } else {
        const { read, write, uncached } = cacheCounts(usage)
        emit(frame({
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { input_tokens: uncached, cache_creation_input_tokens: write, cache_read_input_tokens: read, output_tokens: usage.outputTokens },
        }))
      }
      emit(MESSAGE_STOP)
    }
  }
}
