/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`), JSON and SSE, per
 * `reference/wire-protocols.md` §2.
 * @module
 */
import type { Message, ModelRequest, ModelResponse, Part, ToolChoice, ToolDefinition } from '../../llm/types.js'
import {
  appendPart,
  argumentsJson,
  decodeToolList,
  callArgumentsText,
  chatFinishReason,
  imageFromUrl,
  numberOr,
  openaiErrorBody,
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
import { openaiProviderError } from './errors.js'
import { chatOutputLimitError } from './limits.js'
import { chatLayout } from './cache.js'
import { validateChat } from './validate.js'

/**
 * The `system_fingerprint` answers carry: real ones name the backend configuration
 * (`fp_de604bd877`); this one is fixed.
 */
const SYSTEM_FINGERPRINT = 'fp_a9d0c3e15b'

/** The OpenAI Chat Completions dialect. */
export const openaiChat: ModelDialect = {
  id: 'openai-chat',
  kind: 'model',
  errorStyle: 'openai',
  providerError: openaiProviderError,
  contextTooLongMessage: (tokens, window) =>
    `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
  outputLimitError: chatOutputLimitError,
  validate: (json) => validateChat(json),
  prompt: { layout: (json, _request, roles) => chatLayout(json, roles) },
  needs: [],
  toolCallIds: 'openai-call',
  decode,
  encodeJson,
  encodeStream,
  // Chat has no error event: real traffic sends a frame whose JSON has an `error` key.
  streamError: (message) => [{ data: JSON.stringify(openaiErrorBody(message, 'server_error')) }],
}

function decode(json: Record<string, unknown>): ModelRequest {
  const model = requireString(json, 'model')
  const system: string[] = []
  const messages: Message[] = []
  const raws = requireArray(json, 'messages')
  for (let n = 0; n < raws.length; n++) decodeMessage(record(raws[n]), n, system, messages)
  const request: ModelRequest = { model, messages, stream: json.stream === true }
  if (system.length > 0) request.system = system.join('\n\n')
  const tools = decodeTools(json.tools)
  if (tools.length > 0) request.tools = tools
  const toolChoice = decodeToolChoice(json.tool_choice)
  if (toolChoice) request.toolChoice = toolChoice
  const format = record(json.response_format)
  if (format.type === 'json_schema') {
    const schema = record(format.json_schema)
    request.responseFormat = { type: 'json', schema: schema.schema, ...(typeof schema.name === 'string' ? { name: schema.name } : {}) }
  } else if (format.type === 'json_object') request.responseFormat = { type: 'json' }
  const maxTokens = numberOr(json.max_completion_tokens) ?? numberOr(json.max_tokens)
  if (maxTokens !== undefined) request.maxTokens = maxTokens
  const temperature = numberOr(json.temperature)
  if (temperature !== undefined) request.temperature = temperature
  return request
}

/**
 * Decodes message `n` into `messages` (or `system`). Its path (`messages[n]`) is written out only
 * for an error: a body of 200,000 messages made as many strings for nothing (SPEC §24).
 */
function decodeMessage(message: Record<string, unknown>, n: number, system: string[], messages: Message[]): void {
  switch (message.role) {
    case 'system':
    case 'developer':
      system.push(textOf(message.content))
      return
    case 'user':
      messages.push({ role: 'user', content: decodeUserContent(message.content) })
      return
    case 'assistant': {
      const text = textOf(message.content)
      const parts: Part[] = text ? [{ type: 'text', text }] : []
      const calls = message.tool_calls
      if (Array.isArray(calls)) {
        for (let i = 0; i < calls.length; i++) {
          const call = record(calls[i])
          const fn = record(call.function)
          const id = typeof call.id === 'string' ? call.id : optionalString(call.id, `messages[${n}].tool_calls[${i}].id`)
          const name = typeof fn.name === 'string' ? fn.name : optionalString(fn.name, `messages[${n}].tool_calls[${i}].function.name`)
          parts.push({ type: 'tool-call', id, name, args: parseArguments(fn.arguments) })
        }
      }
      // Always one assistant message per turn, even when it is empty.
      messages.push({ role: 'assistant', content: parts })
      return
    }
    case 'tool': {
      const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : optionalString(message.tool_call_id, `messages[${n}].tool_call_id`)
      const name = toolNameFor(messages, id)
      const result = typeof message.content === 'string' ? message.content : textOf(message.content)
      appendPart(messages, 'tool', { type: 'tool-result', id, ...(name ? { name } : {}), result })
      return
    }
    default:
      return
  }
}

function decodeUserContent(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  if (!Array.isArray(content)) return []
  const parts: Part[] = []
  for (const raw of content) {
    const block = record(raw)
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ type: 'text', text: block.text })
    else if (block.type === 'image_url') {
      const url = record(block.image_url).url ?? block.image_url
      if (typeof url === 'string') parts.push(imageFromUrl(url))
    }
  }
  return parts
}

function decodeTools(tools: unknown): ToolDefinition[] {
  return decodeToolList(tools, (tool) => {
    const fn = record(tool.function)
    return { name: fn.name, description: fn.description, schema: fn.parameters }
  })
}

function decodeToolChoice(choice: unknown): ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice
  const name = record(record(choice).function).name
  return typeof name === 'string' ? { type: 'tool', name } : undefined
}

function encodeJson(response: ModelResponse, context: EncodeContext): unknown {
  // Loops, not flatMap: V8 does not optimise flatMap, and every JSON answer comes through here.
  let text = ''
  let refusal: string | null = null
  const calls: Array<Extract<Part, { type: 'tool-call' }>> = []
  for (const part of response.content) {
    if (part.type === 'text') text += part.text
    else if (part.type === 'refusal') refusal = (refusal ?? '') + part.text
    else if (part.type === 'tool-call') calls.push(part)
  }
  const message: Record<string, unknown> = {
    role: 'assistant',
    // A refusal comes in its own field, with no content (as recorded traffic has it).
    content: text === '' && (calls.length > 0 || refusal !== null) ? null : text,
    refusal,
    annotations: [],
  }
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: callArgumentsText(call) },
    }))
  }
  return {
    id: response.id ?? wireId('chat-completion', context.id),
    object: 'chat.completion',
    created: context.created,
    model: response.model ?? context.request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: chatFinishReason(response.finishReason) }],
    usage: usageOf(response),
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  }
}

function encodeStream(context: EncodeContext, emit: EmitFrame): StreamEncoder {
  const includeUsage = record(context.json.stream_options).include_usage === true
  // Every chunk shares its head and tail: serialise them once and splice each chunk's choices
  // in between, instead of spreading and re-serialising the head per chunk.
  const head = JSON.stringify({
    id: wireId('chat-completion', context.id),
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.request.model,
    service_tier: 'default',
    system_fingerprint: SYSTEM_FINGERPRINT,
  }).slice(0, -1)
  const tail = includeUsage ? ',"usage":null}' : '}'
  const chunk = (choices: string, usage?: string): SseFrame => ({ data: `${head},"choices":${choices}${usage === undefined ? tail : `,"usage":${usage}}`}` })
  const delta = (value: string, finish: string | null = null): SseFrame =>
    chunk(`[{"index":0,"delta":${value},"logprobs":null,"finish_reason":${finish === null ? 'null' : JSON.stringify(finish)}}]`)
  const opening = '{"role":"assistant","content":"","refusal":null}'
  // The hot path: a text delta's chunk is the same but for its text, which alone is serialised.
  const textDelta: SseFrame = { before: `${head},"choices":[{"index":0,"delta":{"content":"`, data: '', after: `"},"logprobs":null,"finish_reason":null}]${tail}` }

  let roleSent = false
  let callIndex = 0
  return (event) => {
    if (event.type === 'text-delta') {
      if (!roleSent) emit(delta(opening))
      roleSent = true
      if (event.text !== '') {
        textDelta.data = jsonStringContent(event.text)
        emit(textDelta)
      }
    } else if (event.type === 'tool-call') {
      const index = callIndex++
      const [first, ...rest] = splitArguments(callArgumentsText(event))
      const call = JSON.stringify([{ index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }])
      // Real traffic opens with a chunk of its own carrying only the role, then the call.
      if (!roleSent) emit(delta('{"role":"assistant","content":null,"refusal":null}'))
      roleSent = true
      emit(delta(`{"tool_calls":${call}}`))
      for (const fragment of [first, ...rest]) emit(delta(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(fragment)}}}]}`))
    } else if (event.type === 'refusal-delta') {
      if (!roleSent) emit(delta('{"role":"assistant","content":null,"refusal":""}'))
      roleSent = true
      if (event.text !== '') emit(delta(`{"refusal":${JSON.stringify(event.text)}}`))
    } else if (event.type === 'finish') {
      // The `.stream()` helper needs a role in some delta, even for an empty answer.
      if (!roleSent) emit(delta(opening))
      emit(delta('{}', chatFinishReason(event.response.finishReason)))
      if (includeUsage) emit(chunk('[]', JSON.stringify(usageOf(event.response))))
      emit({ data: '[DONE]' })
    }
    // Chat Completions has no standard field for reasoning: reasoning deltas are not sent.
  }
}

function usageOf(response: ModelResponse): unknown {
  const { inputTokens, outputTokens } = response.usage
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: response.usage.cacheReadTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  }
}
