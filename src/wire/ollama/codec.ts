/**
 * Ollama's native API (`/api/chat`, `/api/generate`, `/api/embed`, `/api/tags`): JSON answers
 * and NDJSON streams (Ollama streams unless the request says `stream: false`). Requests decode
 * into the neutral model and answers encode out of it, so the `ollama` client and the AI SDK's
 * Ollama provider run on the same brain as every other client.
 * @module
 */
import { OpenCalls } from '../open-calls.js'
import { checkOllamaFields } from './strict.js'
import type { Message, ModelRequest, ModelResponse, Part } from '../../llm/types.js'
import { estimateInputTokens } from '../../llm/usage.js'
import {
  BadRequest,
  decodeToolList,
  numberOr,
  parseArguments,
  record,
  type DirectDialect,
  type EncodeContext,
  type ModelDialect,
  type EmitFrame,
  type SseFrame,
  type StreamEncoder,
  type StreamFraming,
} from '../dialect.js'
import { ollamaErrorAnswer, ollamaProviderError } from './errors.js'
import { requestedDimensions } from '../params.js'
import { ollamaContentText, ollamaSendsCall } from './misbehave.js'

/** Durations every answer reports (nanoseconds), fixed so answers are deterministic. */
const DURATIONS = { total_duration: 12_000_000, load_duration: 1_000_000, prompt_eval_duration: 3_000_000, eval_duration: 8_000_000 }

function requireModel(json: Record<string, unknown>): string {
  if (typeof json.model !== 'string' || json.model === '') throw new BadRequest('model is required', 'model')
  return json.model
}

/** `options.temperature`, `options.num_predict`, `format` and `stream` (on by default), shared by chat and generate. */
function decodeSettings(json: Record<string, unknown>, request: ModelRequest): void {
  if (json.stream !== undefined && typeof json.stream !== 'boolean') throw new BadRequest('stream must be a boolean', 'stream')
  const options = record(json.options)
  const temperature = numberOr(options.temperature)
  if (temperature !== undefined) request.temperature = temperature
  const maxTokens = numberOr(options.num_predict)
  if (maxTokens !== undefined && maxTokens > 0) request.maxTokens = maxTokens
  if (json.format === 'json') request.responseFormat = { type: 'json' }
  else if (json.format !== undefined && json.format !== '' && json.format !== null) {
    if (typeof json.format !== 'object' || Array.isArray(json.format)) throw new BadRequest('format must be "json" or a JSON schema object', 'format')
    request.responseFormat = { type: 'json', schema: json.format }
  }
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool'])

function decodeChat(json: Record<string, unknown>): ModelRequest {
  const model = requireModel(json)
  if (json.messages !== undefined && !Array.isArray(json.messages)) throw new BadRequest('messages must be an array', 'messages')
  checkOllamaFields(json, 'ChatRequest')
  const messages: Message[] = []
  const system: string[] = []
  const open = new OpenCalls()
  let counter = 0
  ;((json.messages ?? []) as unknown[]).forEach((raw, index) => {
    const message = record(raw)
    if (message !== raw || !ROLES.has(message.role as string)) {
      throw new BadRequest(`invalid role ${JSON.stringify(message.role)} at messages[${index}]: use system, user, assistant or tool`, `messages[${index}].role`)
    }
    const content = typeof message.content === 'string' ? message.content : ''
    if (message.role === 'system') {
      system.push(content)
      return
    }
    if (message.role === 'tool') {
      // The `ollama` client names the tool (`tool_name`); the AI SDK provider gives the call's id.
      const name = typeof message.tool_name === 'string' ? message.tool_name : undefined
      const taken = (typeof message.tool_call_id === 'string' ? open.takeById(message.tool_call_id) : undefined) ?? open.takeByName(name)
      const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : (taken?.id ?? `call_${name ?? 'tool'}`)
      const toolName = name ?? taken?.name
      const result = messages.at(-1)
      const part: Part = { type: 'tool-result', id, ...(toolName ? { name: toolName } : {}), result: content }
      if (result?.role === 'tool') result.content.push(part)
      else messages.push({ role: 'tool', content: [part] })
      return
    }
    const parts: Part[] = []
    if (typeof message.thinking === 'string' && message.thinking !== '') parts.push({ type: 'reasoning', text: message.thinking })
    if (content !== '') parts.push({ type: 'text', text: content })
    for (const image of Array.isArray(message.images) ? message.images : []) if (typeof image === 'string') parts.push({ type: 'image', data: image })
    for (const rawCall of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      const call = record(rawCall)
      const fn = record(call.function)
      if (typeof fn.name !== 'string') continue
      const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${fn.name}_${++counter}`
      open.push(id, fn.name)
      parts.push({ type: 'tool-call', id, name: fn.name, args: parseArguments(fn.arguments ?? {}) })
    }
    messages.push({ role: message.role as 'user' | 'assistant', content: parts })
  })
  const request: ModelRequest = { model, messages, stream: json.stream !== false }
  if (system.length > 0) request.system = system.join('\n')
  const tools = decodeToolList(json.tools, (tool) => {
    const fn = record(tool.function)
    return { name: fn.name, description: fn.description, schema: fn.parameters }
  })
  if (tools.length > 0) request.tools = tools
  decodeSettings(json, request)
  return request
}

function decodeGenerate(json: Record<string, unknown>): ModelRequest {
  const model = requireModel(json)
  checkOllamaFields(json, 'GenerateRequest')
  if (json.prompt !== undefined && typeof json.prompt !== 'string') throw new BadRequest('prompt must be a string', 'prompt')
  const parts: Part[] = []
  if (typeof json.prompt === 'string' && json.prompt !== '') parts.push({ type: 'text', text: json.prompt })
  for (const image of Array.isArray(json.images) ? json.images : []) if (typeof image === 'string') parts.push({ type: 'image', data: image })
  const request: ModelRequest = { model, messages: parts.length > 0 ? [{ role: 'user', content: parts }] : [], stream: json.stream !== false }
  if (typeof json.system === 'string' && json.system !== '') request.system = json.system
  decodeSettings(json, request)
  return request
}

const doneReasons = { stop: 'stop', 'tool-calls': 'stop', length: 'length', 'content-filter': 'stop', refusal: 'stop' } as const

function createdAt(context: EncodeContext): string {
  return new Date(context.created * 1000).toISOString()
}

function finalFields(response: ModelResponse): Record<string, unknown> {
  return {
    done: true,
    done_reason: doneReasons[response.finishReason] ?? 'stop',
    ...DURATIONS,
    prompt_eval_count: response.usage.inputTokens,
    eval_count: response.usage.outputTokens,
  }
}

function toolCallsOf(content: readonly Part[]): Record<string, unknown>[] {
  return content.flatMap((part, index) =>
    part.type === 'tool-call' && ollamaSendsCall(part) ? [{ id: part.id, function: { index, name: part.name, arguments: argumentsObject(part.args) } }] : [],
  )
}

/** `function.arguments` is a JSON object on this wire. */
function argumentsObject(args: unknown): unknown {
  const parsed = parseArguments(args)
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
}

function textOfParts(content: readonly Part[], type: 'text' | 'reasoning'): string {
  if (type === 'text') return content.flatMap((part) => ollamaContentText(part) ?? []).join('')
  return content.flatMap((part) => (part.type === type ? [part.text] : [])).join('')
}

function chatMessage(content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { role: 'assistant', content, ...extra }
}

function encodeChatJson(response: ModelResponse, context: EncodeContext): unknown {
  const thinking = textOfParts(response.content, 'reasoning')
  const calls = toolCallsOf(response.content)
  const message = chatMessage(textOfParts(response.content, 'text'), { ...(thinking ? { thinking } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) })
  return { model: response.model ?? context.request.model, created_at: createdAt(context), message, ...finalFields(response) }
}

function encodeGenerateJson(response: ModelResponse, context: EncodeContext): unknown {
  const thinking = textOfParts(response.content, 'reasoning')
  return {
    model: response.model ?? context.request.model,
    created_at: createdAt(context),
    response: textOfParts(response.content, 'text'),
    ...(thinking ? { thinking } : {}),
    ...finalFields(response),
    context: [],
  }
}

/** One line per text or thinking delta and per tool call (sent whole), then the `done` line with the counts. */
function encodeChatStream(context: EncodeContext, emit: EmitFrame): StreamEncoder {
  const line = (fields: Record<string, unknown>): SseFrame => ({ data: JSON.stringify({ model: context.request.model, created_at: createdAt(context), ...fields }) })
  let calls = 0
  return (event) => {
    if (event.type === 'text-delta' || event.type === 'refusal-delta') emit(line({ message: chatMessage(event.text), done: false }))
    else if (event.type === 'reasoning-delta') emit(line({ message: chatMessage('', { thinking: event.text }), done: false }))
    else if (event.type === 'tool-call' && !ollamaSendsCall(event)) emit(line({ message: chatMessage(event.argsText ?? ''), done: false }))
    else if (event.type === 'tool-call') {
      const call = { id: event.id, function: { index: calls++, name: event.name, arguments: argumentsObject(event.args) } }
      emit(line({ message: chatMessage('', { tool_calls: [call] }), done: false }))
    } else if (event.type === 'finish') {
      emit(line({ message: chatMessage(''), ...finalFields(event.response) }))
    }
  }
}

function encodeGenerateStream(context: EncodeContext, emit: EmitFrame): StreamEncoder {
  const line = (fields: Record<string, unknown>): SseFrame => ({ data: JSON.stringify({ model: context.request.model, created_at: createdAt(context), ...fields }) })
  return (event) => {
    if (event.type === 'text-delta' || event.type === 'refusal-delta') emit(line({ response: event.text, done: false }))
    else if (event.type === 'reasoning-delta') emit(line({ response: '', thinking: event.text, done: false }))
    else if (event.type === 'finish') {
      emit(line({ response: '', ...finalFields(event.response), context: [] }))
    }
  }
}

const ndjson = (): StreamFraming => 'ndjson'
const streamError = (message: string): SseFrame => ({ data: JSON.stringify({ error: message }) })

/** `POST /api/chat`. */
export const ollamaChat: ModelDialect = {
  id: 'ollama-chat',
  kind: 'model',
  toolCallIds: 'openai-call',
  errorStyle: 'openai',
  needs: [],
  anyContentType: true,
  decode: decodeChat,
  errorAnswer: ollamaErrorAnswer,
  providerError: ollamaProviderError,
  encodeJson: encodeChatJson,
  encodeStream: encodeChatStream,
  framing: ndjson,
  streamError: (message) => [streamError(message)],
}

/** `POST /api/generate`. */
export const ollamaGenerate: ModelDialect = {
  id: 'ollama-generate',
  kind: 'model',
  toolCallIds: 'openai-call',
  errorStyle: 'openai',
  needs: [],
  anyContentType: true,
  decode: decodeGenerate,
  errorAnswer: ollamaErrorAnswer,
  providerError: ollamaProviderError,
  encodeJson: encodeGenerateJson,
  encodeStream: encodeGenerateStream,
  framing: ndjson,
  streamError: (message) => [streamError(message)],
}

/** The texts of `/api/embed` (`input`: a string or strings) or the legacy `/api/embeddings` (`prompt`). */
function embedInputs(json: Record<string, unknown>, legacy: boolean): string[] {
  if (legacy) {
    if (typeof json.prompt !== 'string') throw new BadRequest('prompt must be a string', 'prompt')
    return [json.prompt]
  }
  const input = json.input
  if (typeof input === 'string') return [input]
  if (Array.isArray(input) && input.length > 0 && input.every((item) => typeof item === 'string')) return input as string[]
  throw new BadRequest('invalid input type: input must be a string or a non-empty array of strings', 'input')
}

function dimensionsOf(json: Record<string, unknown>): number {
  return requestedDimensions(json.dimensions, 8192, 'dimensions must be an integer from 1 to 8192', 'dimensions')
}

/** `POST /api/embed` (and the legacy `POST /api/embeddings`). */
export const ollamaEmbed: DirectDialect = {
  id: 'ollama-embed',
  kind: 'direct',
  errorStyle: 'openai',
  needs: ['embeddings'],
  anyContentType: true,
  errorAnswer: ollamaErrorAnswer,
  providerError: ollamaProviderError,
  decode: (json, target) => {
    const model = requireModel(json)
    checkOllamaFields(json, 'EmbedRequest')
    dimensionsOf(json)
    const texts = embedInputs(json, target?.path === '/api/embeddings')
    return { model, messages: [{ role: 'user', content: texts.map((text) => ({ type: 'text' as const, text })) }], stream: false }
  },
  answer: async (request, { json, path, embed }) => {
    const legacy = path === '/api/embeddings'
    const dimensions = dimensionsOf(json)
    const vectors = await Promise.all(embedInputs(json, legacy).map((text) => embed(text, request.model, dimensions)))
    if (legacy) return { embedding: vectors[0] }
    return { model: request.model, embeddings: vectors, total_duration: DURATIONS.total_duration, load_duration: DURATIONS.load_duration, prompt_eval_count: estimateInputTokens(request) }
  },
}

/** The models `/api/tags` lists. */
export const ollamaModelNames: readonly string[] = Object.freeze(['llama3.2:latest', 'qwen3:8b', 'nomic-embed-text:latest'])

function ollamaModel(name: string): Record<string, unknown> {
  const family = name.split(/[\d:.-]/)[0] || name
  return {
    name,
    model: name,
    modified_at: '2025-01-01T00:00:00Z',
    size: 2_019_393_189,
    digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
    details: { parent_model: '', format: 'gguf', family, families: [family], parameter_size: '3.2B', quantization_level: 'Q4_K_M' },
  }
}

/** `GET /api/tags`. */
export const ollamaTags: DirectDialect = {
  id: 'ollama-tags',
  kind: 'direct',
  errorStyle: 'openai',
  needs: [],
  modelTraffic: false,
  errorAnswer: ollamaErrorAnswer,
  providerError: ollamaProviderError,
  decode: (): ModelRequest => ({ model: '', messages: [], stream: false }),
  answer: () => ({ models: ollamaModelNames.map(ollamaModel) }),
}
