/**
 * The Vercel AI SDK adapter: any neutral {@link LLM} as an AI SDK language model, and the
 * conversions between the AI SDK's call options and results and the neutral model.
 *
 * It speaks specification `'v3'`, which `ai` 6 runs natively and `ai` 7 wraps into its own
 * `'v4'` (converting `'v4'` prompts to `'v3'` first), so one model serves both. Nothing from
 * `ai` or `@ai-sdk/provider` is imported: the types below are the parts of the spec it uses.
 * @module
 */
import { toBase64 } from '../internal/bytes.js'
import type { FinishReason, LLM, Message, ModelRequest, ModelResponse, Part, StreamEvent, ToolChoice } from './types.js'
import { deepCopy, handOver } from './helpers.js'
import { eventsAtOnce, type MaybeAtOnce } from './stream-events.js'

/** A message of an AI SDK prompt, loosely typed: the converter checks each part at run time. */
export interface AiPromptMessage {
  role: string
  content: unknown
}

/** The call options an AI SDK language model receives (`LanguageModelV3CallOptions`), as far as they are read here. */
export interface AiCallOptions {
  prompt: AiPromptMessage[]
  maxOutputTokens?: number
  temperature?: number
  responseFormat?: { type: 'text' } | { type: 'json'; schema?: unknown; name?: string; description?: string }
  tools?: Array<{ type: string; name: string; description?: string; inputSchema?: unknown }>
  toolChoice?: { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; toolName: string }
  abortSignal?: AbortSignal
}

/** A content part of an AI SDK result. */
export type AiContent =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string }
  | { type: 'file'; mediaType: string; data: string }

/** The AI SDK's finish reason (`LanguageModelV3FinishReason`). */
export interface AiFinishReason {
  unified: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other'
  raw: string | undefined
}

/** The AI SDK's token usage (`LanguageModelV3Usage`). */
export interface AiUsage {
  inputTokens: { total: number | undefined; noCache: number | undefined; cacheRead: number | undefined; cacheWrite: number | undefined }
  outputTokens: { total: number | undefined; text: number | undefined; reasoning: number | undefined }
}

/** What `doGenerate` resolves to. */
export interface AiGenerateResult {
  content: AiContent[]
  finishReason: AiFinishReason
  usage: AiUsage
  warnings: never[]
  response?: { id?: string; modelId?: string }
}

/** One part of the stream `doStream` returns. */
export type AiStreamPart =
  | { type: 'stream-start'; warnings: never[] }
  | { type: 'response-metadata'; id?: string; modelId?: string }
  | { type: 'text-start' | 'text-end' | 'reasoning-start' | 'reasoning-end'; id: string }
  | { type: 'text-delta' | 'reasoning-delta'; id: string; delta: string }
  | { type: 'tool-input-start'; id: string; toolName: string }
  | { type: 'tool-input-delta'; id: string; delta: string }
  | { type: 'tool-input-end'; id: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: string }
  | { type: 'finish'; usage: AiUsage; finishReason: AiFinishReason }

/** An AI SDK language model (specification `'v3'`), as `generateText` and `streamText` of `ai` 6 and 7 accept it. */
export interface AiLanguageModel {
  readonly specificationVersion: 'v3'
  readonly provider: string
  readonly modelId: string
  readonly supportedUrls: Record<string, RegExp[]>
  doGenerate(options: AiCallOptions): PromiseLike<AiGenerateResult>
  doStream(options: AiCallOptions): PromiseLike<{ stream: ReadableStream<AiStreamPart> }>
}

/** Whether `value` looks like an AI SDK language model of any specification version. */
export function isAiLanguageModel(value: unknown): value is { specificationVersion: string; doGenerate: unknown; doStream: unknown } {
  if (value === null || typeof value !== 'object') return false
  const model = value as Record<string, unknown>
  return typeof model.specificationVersion === 'string' && typeof model.doGenerate === 'function' && typeof model.doStream === 'function'
}

/**
 * The AI SDK language model that answers through `llm`.
 * @example
 * const model = toLanguageModel(myLLM, { modelId: 'mock' })
 */
export function toLanguageModel(llm: LLM, { modelId, provider = 'agent-doubles' }: { modelId: string; provider?: string }): AiLanguageModel {
  return {
    specificationVersion: 'v3',
    provider,
    modelId,
    // Every URL is "supported", so the SDK hands URLs through instead of downloading them.
    supportedUrls: { '*/*': [/^/] },
    async doGenerate(options) {
      options.abortSignal?.throwIfAborted()
      return toGenerateResult(await llm.generate(handOver(toModelRequest(options, modelId, false))))
    },
    async doStream(options) {
      options.abortSignal?.throwIfAborted()
      const stream: AsyncIterable<StreamEvent> & MaybeAtOnce = llm.stream(handOver(toModelRequest(options, modelId, true)), { signal: options.abortSignal })
      // A ScriptedLLM without delays hands over all its events once answered: read them without
      // a promise each (the stream still checks the signal before every event).
      const iterator = stream[eventsAtOnce] ? await stream[eventsAtOnce]() : stream[Symbol.asyncIterator]()
      // Await the first event here, so a failing call rejects doStream as a real provider's would.
      const first = await iterator.next()
      return { stream: toAiStream(first, iterator, options.abortSignal) }
    },
  }
}

/**
 * Converts AI SDK call options into a neutral request; system messages join into `system`. It
 * shares nothing with `options` (the caller's schemas, tool inputs and results are copied), and
 * its result is read but never kept or shown by the adapter (only new objects built from the
 * response reach the SDK), so `toLanguageModel` hands it over: a ScriptedLLM records it, and its
 * answer, without copying either again.
 */
export function toModelRequest(options: AiCallOptions, model: string, stream: boolean): ModelRequest {
  const system: string[] = []
  const messages: Message[] = []
  for (const message of options.prompt ?? []) {
    if (message.role === 'system') system.push(String(message.content))
    else if (message.role === 'user' || message.role === 'assistant' || message.role === 'tool') {
      const parts = Array.isArray(message.content) ? message.content : []
      // A loop, not flatMap: V8 does not optimise flatMap, which took most of this function's time.
      const content: Part[] = []
      for (const part of parts) {
        const converted = toPart(part as Record<string, unknown>)
        if (converted) content.push(converted)
      }
      messages.push({ role: message.role, content })
    }
  }
  const req: ModelRequest = { model, messages, stream }
  if (system.length > 0) req.system = system.join('\n')
  const tools = (options.tools ?? []).filter((tool) => tool.type === 'function')
  if (tools.length > 0) {
    req.tools = tools.map((tool) => ({ name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: copyOf(tool.inputSchema) ?? {} }))
  }
  // ai 7 sends `toolChoice: auto` even without tools; with no tools there is no choice to record.
  if (options.toolChoice && req.tools) req.toolChoice = toToolChoice(options.toolChoice)
  if (options.responseFormat?.type === 'json') {
    const { schema, name } = options.responseFormat
    req.responseFormat = { type: 'json', ...(schema !== undefined ? { schema: copyOf(schema) } : {}), ...(name !== undefined ? { name } : {}) }
  }
  if (options.maxOutputTokens !== undefined) req.maxTokens = options.maxOutputTokens
  if (options.temperature !== undefined) req.temperature = options.temperature
  return req
}

function toToolChoice(choice: NonNullable<AiCallOptions['toolChoice']>): ToolChoice {
  return choice.type === 'tool' ? { type: 'tool', name: choice.toolName } : choice.type
}

function toPart(part: Record<string, unknown>): Part | undefined {
  switch (part?.type) {
    case 'text':
    case 'reasoning':
      return { type: part.type, text: String(part.text ?? '') }
    case 'file':
      return toImage(part.data, part.mediaType as string | undefined)
    case 'tool-call':
      return { type: 'tool-call', id: String(part.toolCallId), name: String(part.toolName), args: copyOf(part.input) }
    case 'tool-result':
      return toToolResult(part)
    default:
      return undefined // approvals and provider-specific parts have no neutral form
  }
}

/** A file part as an image: URLs by reference, bytes as base64 (`'v4'` `{ type: 'data' | 'url' }` data too). */
function toImage(data: unknown, mediaType: string | undefined): Part {
  // ai 6 says `image/*` for an image of unknown subtype, ai 7 says `image`: record one form.
  const fullType = mediaType && !mediaType.includes('/') ? `${mediaType}/*` : mediaType
  const image: Part = { type: 'image', ...(fullType ? { mediaType: fullType } : {}) }
  const inner = data !== null && typeof data === 'object' && 'type' in data ? (data as { type: string; data?: unknown; url?: unknown }) : undefined
  const value = inner ? (inner.type === 'url' ? inner.url : inner.data) : data
  if (value instanceof URL) image.url = value.href
  else if (value instanceof Uint8Array) image.data = toBase64(value)
  else if (typeof value === 'string') image.data = value
  return image
}

function toToolResult(part: Record<string, unknown>): Part {
  const output = (part.output ?? { type: 'json', value: part.result }) as { type: string; value?: unknown; reason?: string }
  const result: Part = { type: 'tool-result', id: String(part.toolCallId), name: String(part.toolName), result: copyOf(output.value) }
  if (output.type === 'error-text' || output.type === 'error-json') result.isError = true
  if (output.type === 'execution-denied') Object.assign(result, { result: output.reason ?? 'Tool execution denied.', isError: true })
  if (output.type === 'content' && Array.isArray(output.value) && output.value.every((item) => item?.type === 'text')) {
    result.result = output.value.map((item: { text: string }) => item.text).join('')
  }
  return result
}

/** A copy of a value the caller owns: only objects need one. */
function copyOf<T>(value: T): T {
  return typeof value === 'object' && value !== null ? deepCopy(value) : value
}

/** A neutral response as the result of `doGenerate`. */
export function toGenerateResult(response: ModelResponse): AiGenerateResult {
  const content: AiContent[] = []
  for (const part of response.content) {
    if (part.type === 'text' || part.type === 'reasoning') content.push({ type: part.type, text: part.text })
    // The AI SDK has no refusal part: a refusal's words are its text, its finish a content filter.
    else if (part.type === 'refusal') content.push({ type: 'text', text: part.text })
    else if (part.type === 'tool-call') content.push(toAiToolCall(part.id, part.name, part.argsText ?? part.args))
    else if (part.type === 'image' && part.data !== undefined) content.push({ type: 'file', mediaType: part.mediaType ?? 'image/png', data: part.data })
  }
  return {
    content,
    finishReason: aiFinishReason(response.finishReason),
    usage: toAiUsage(response),
    warnings: [],
    response: { ...(response.id ? { id: response.id } : {}), ...(response.model ? { modelId: response.model } : {}) },
  }
}

/** A neutral finish reason as the AI SDK's: a refusal is its `content-filter`. */
function aiFinishReason(reason: FinishReason): AiFinishReason {
  return { unified: reason === 'refusal' ? 'content-filter' : reason, raw: reason }
}

function toAiToolCall(id: string, name: string, args: unknown): { type: 'tool-call'; toolCallId: string; toolName: string; input: string } {
  return { type: 'tool-call', toolCallId: id, toolName: name, input: typeof args === 'string' ? args : (JSON.stringify(args ?? {}) ?? '{}') }
}

function toAiUsage({ usage }: ModelResponse): AiUsage {
  return {
    inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: usage.outputTokens, text: usage.outputTokens, reasoning: undefined },
  }
}

/** Neutral stream events as the AI SDK's stream parts: text and reasoning in start/delta/end blocks. */
function toAiStream(
  first: IteratorResult<StreamEvent>,
  iterator: AsyncIterator<StreamEvent> | Iterator<StreamEvent>,
  signal: AbortSignal | undefined,
): ReadableStream<AiStreamPart> {
  let pending: IteratorResult<StreamEvent> | undefined = first
  let open: { type: 'text' | 'reasoning'; id: string } | undefined
  let blocks = 0
  const close = (controller: ReadableStreamDefaultController<AiStreamPart>): void => {
    if (open) controller.enqueue({ type: `${open.type}-end`, id: open.id })
    open = undefined
  }
  return new ReadableStream<AiStreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] })
    },
    async pull(controller) {
      if (signal?.aborted) {
        await iterator.return?.()
        throw signal.reason
      }
      const next = pending ?? (await iterator.next())
      pending = undefined
      if (next.done) return controller.close()
      const event = next.value
      if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
        const type = event.type === 'reasoning-delta' ? 'reasoning' : 'text'
        if (open?.type !== type) {
          close(controller)
          open = { type, id: `${type}-${blocks++}` }
          controller.enqueue({ type: `${type}-start`, id: open.id })
        }
        controller.enqueue({ type: `${type}-delta`, id: open.id, delta: event.text })
      } else if (event.type === 'tool-call') {
        close(controller)
        const call = toAiToolCall(event.id, event.name, event.argsText ?? event.args)
        controller.enqueue({ type: 'tool-input-start', id: event.id, toolName: event.name })
        controller.enqueue({ type: 'tool-input-delta', id: event.id, delta: call.input })
        controller.enqueue({ type: 'tool-input-end', id: event.id })
        controller.enqueue(call)
      } else {
        close(controller)
        const { response } = event
        controller.enqueue({ type: 'response-metadata', ...(response.id ? { id: response.id } : {}), ...(response.model ? { modelId: response.model } : {}) })
        controller.enqueue({ type: 'finish', usage: toAiUsage(response), finishReason: aiFinishReason(response.finishReason) })
      }
    },
    async cancel() {
      await iterator.return?.()
    },
  })
}

/** An AI SDK finish reason (`'v2'` string or `'v3'`+ object) in neutral form. */
export function fromAiFinishReason(value: unknown): FinishReason {
  const unified = typeof value === 'string' ? value : (value as { unified?: string } | undefined)?.unified
  return unified === 'tool-calls' || unified === 'length' || unified === 'content-filter' ? unified : 'stop'
}

/** An AI SDK token count (`'v2'` number or `'v3'`+ `{ total }`) as a number. */
export function fromAiTokens(value: unknown): number {
  if (typeof value === 'number') return value
  const total = (value as { total?: unknown } | undefined)?.total
  return typeof total === 'number' ? total : 0
}

/** A content part of an AI SDK result (any specification version) in neutral form, or none. */
export function fromAiContent(part: Record<string, unknown>): Part[] {
  switch (part?.type) {
    case 'text':
    case 'reasoning':
      return [{ type: part.type, text: String(part.text ?? '') }]
    case 'tool-call':
      return [{ type: 'tool-call', id: String(part.toolCallId), name: String(part.toolName), args: parseArgs(part.input) }]
    case 'file':
      return [toImage(part.data, part.mediaType as string | undefined)]
    default:
      return []
  }
}

/** Tool-call input arrives as JSON text; keep it as text when it is not JSON. */
export function parseArgs(input: unknown): unknown {
  if (typeof input !== 'string') return input
  try {
    return JSON.parse(input)
  } catch {
    return input
  }
}
