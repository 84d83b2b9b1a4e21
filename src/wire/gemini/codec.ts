/**
 * Google Gemini (the Generative Language API, `/v1beta/models/{model}:{method}`): content
 * generation in JSON, SSE (`alt=sse`) and the JSON-array stream, token counting, embeddings and
 * the model list. Requests decode into the neutral model and answers encode out of it, so the
 * brain that answers OpenAI and Anthropic clients answers `@google/genai`, `@ai-sdk/google` and
 * `@langchain/google-genai` too.
 * @module
 */
import { OpenCalls } from '../open-calls.js'
import { checkGenerateFields } from './strict.js'
import { estimateInputTokens, estimateTokens } from '../../llm/usage.js'
import { countPrompt } from '../prompt-count.js'
import type { Message, ModelRequest, ModelResponse, Part, ToolChoice, ToolDefinition } from '../../llm/types.js'
import {
  BadRequest,
  argumentsJson,
  parseArguments,
  record,
  type DirectDialect,
  type EncodeContext,
  type ModelDialect,
  type RequestTarget,
  type EmitFrame,
  type SseFrame,
  type StreamEncoder,
  type StreamFraming,
} from '../dialect.js'
import { geminiErrorAnswer, geminiProviderError } from './errors.js'
import { geminiOutputLimitError } from './limits.js'
import { geminiLayout } from './cache.js'
import type { PromptTerms } from '../prompt-layout.js'
import { decodeSegment, requestedDimensions } from '../params.js'
import { geminiFinishMessage, geminiFinishReason, geminiSends } from './misbehave.js'

/** The model methods served under `/v1beta/models/{model}:`. */
export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'countTokens' | 'embedContent' | 'batchEmbedContents'

/** Matches `/v1beta/models/{model}:{method}` (the version segment is optional), capturing both. */
export const GEMINI_METHOD_PATH = /^(?:\/v1beta|\/v1|\/v1alpha)?\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens|embedContent|batchEmbedContents)$/

/**
 * Matches the model list and one model: `/v1beta/models` and `/v1beta/models/{model}`. (On
 * `/v1/models`, which OpenAI's list serves, the `x-goog-api-key` header selects this one.)
 */
export const GEMINI_MODELS_PATH = /^\/v1(?:beta)?\/models(?:\/([^/:]+))?$/

/** The paths the Gemini model list owns outright (`/v1/models` is shared with OpenAI's list). */
export const GEMINI_MODELS_ROUTE = /^\/v1beta\/models(?:\/[^/:]+)?$/

/** The model and method a path names, or `undefined` off the Gemini routes. */
function methodTarget(target: RequestTarget | undefined): { model: string; method: GeminiMethod } | undefined {
  const match = target && GEMINI_METHOD_PATH.exec(target.path)
  if (!match) return undefined
  return { model: decodeSegment(match[1]), method: match[2] as GeminiMethod }
}

/** `models/x` → `x`: request bodies name models with the prefix, paths without. */
function bareModel(name: string): string {
  return name.startsWith('models/') ? name.slice('models/'.length) : name
}

function requireModel(target: RequestTarget | undefined): { model: string; method: GeminiMethod } {
  const found = methodTarget(target)
  if (!found) throw new BadRequest('the path must be /v1beta/models/{model}:{method}')
  return found
}

// ---------------------------------------------------------------------------------------------
// Decoding requests

/** Reads `generateContent`'s body (also the one `countTokens` may wrap) into the neutral model. */
function decodeGenerate(json: Record<string, unknown>, model: string, stream: boolean): ModelRequest {
  const contents = json.contents
  if (!Array.isArray(contents) || contents.length === 0) throw new BadRequest('* GenerateContentRequest.contents: contents is not specified', 'contents')
  checkGenerateFields(json)
  const calls: PendingCalls = { open: new OpenCalls(), counter: 0 }
  const messages: Message[] = []
  contents.forEach((raw, index) => decodeContent(raw, index, messages, calls))
  const request: ModelRequest = { model, messages, stream }
  const system = systemText(json.systemInstruction ?? json.system_instruction)
  if (system !== '') request.system = system
  const tools = decodeTools(json.tools)
  if (tools.length > 0) request.tools = tools
  const toolChoice = decodeToolChoice(record(record(json.toolConfig ?? json.tool_config).functionCallingConfig))
  if (toolChoice) request.toolChoice = toolChoice
  decodeGenerationConfig(record(json.generationConfig ?? json.generation_config), request)
  return request
}

/** Tool calls not yet answered, to pair id-less `functionResponse`s with id-less calls by name. */
interface PendingCalls {
  open: OpenCalls
  counter: number
}

function decodeContent(raw: unknown, index: number, messages: Message[], calls: PendingCalls): void {
  const content = record(raw)
  const at = `contents[${index}]`
  if (content !== raw) throw new BadRequest(`* GenerateContentRequest.${at}: must be an object`, at)
  const role = content.role ?? 'user'
  if (role !== 'user' && role !== 'model' && role !== 'function' && role !== 'tool') {
    throw new BadRequest(`Please use a valid role: user, model. Got ${JSON.stringify(role)} at ${at}.role`, `${at}.role`)
  }
  if (!Array.isArray(content.parts) || content.parts.length === 0) {
    throw new BadRequest(`* GenerateContentRequest.${at}.parts: contents.parts must not be empty.`, `${at}.parts`)
  }
  const neutralRole = role === 'model' ? 'assistant' : 'user'
  const parts: Part[] = []
  const results: Part[] = []
  content.parts.forEach((rawPart, partIndex) => {
    const part = decodePart(rawPart, `${at}.parts[${partIndex}]`, calls)
    if (part?.type === 'tool-result') results.push(part)
    else if (part) parts.push(part)
  })
  // Function responses travel in user turns on this wire; the neutral model gives them a `tool` message.
  if (results.length > 0) messages.push({ role: 'tool', content: results })
  if (parts.length > 0) messages.push({ role: neutralRole, content: parts })
}

function decodePart(raw: unknown, at: string, calls: PendingCalls): Part | undefined {
  const part = record(raw)
  if (typeof part.text === 'string') return part.thought === true ? { type: 'reasoning', text: part.text } : { type: 'text', text: part.text }
  const call = record(part.functionCall ?? part.function_call)
  if (typeof call.name === 'string') {
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${call.name}_${++calls.counter}`
    calls.open.push(id, call.name)
    return { type: 'tool-call', id, name: call.name, args: parseArguments(call.args ?? {}) }
  }
  const response = record(part.functionResponse ?? part.function_response)
  if (typeof response.name === 'string') {
    const name = response.name
    const open = typeof response.id === 'string' ? calls.open.takeById(response.id) : calls.open.takeByName(name)
    const id = typeof response.id === 'string' && response.id !== '' ? response.id : (open?.id ?? `call_${name}`)
    const { result, isError } = functionResult(response.response)
    return { type: 'tool-result', id, name, result, ...(isError ? { isError: true } : {}) }
  }
  const inline = record(part.inlineData ?? part.inline_data)
  if (typeof inline.data === 'string') return { type: 'image', ...(typeof inline.mimeType === 'string' ? { mediaType: inline.mimeType } : {}), data: inline.data }
  const file = record(part.fileData ?? part.file_data)
  if (typeof file.fileUri === 'string') return { type: 'image', ...(typeof file.mimeType === 'string' ? { mediaType: file.mimeType } : {}), url: file.fileUri }
  if (part !== raw || Object.keys(part).length === 0) throw new BadRequest(`* GenerateContentRequest.${at}.data: required oneof field 'data' must have one initialized field`, at)
  // Parts that carry no conversation (executable code, video metadata, signatures only) are skipped.
  return undefined
}

/**
 * A function response's result. Gemini documents `output` for the result and `error` for a
 * failure, the whole object otherwise; the AI SDK sends `{ name, content }`, read as `content`.
 */
function functionResult(response: unknown): { result: unknown; isError: boolean } {
  const body = record(response)
  if ('error' in body && !('output' in body)) return { result: body.error, isError: true }
  if ('output' in body) return { result: body.output, isError: false }
  const keys = Object.keys(body)
  if ('content' in body && keys.every((key) => key === 'name' || key === 'content')) return { result: body.content, isError: false }
  return { result: response ?? {}, isError: false }
}

function systemText(instruction: unknown): string {
  if (typeof instruction === 'string') return instruction
  const parts = record(instruction).parts
  if (!Array.isArray(parts)) return ''
  return parts.map((part) => (typeof record(part).text === 'string' ? (record(part).text as string) : '')).join('\n')
}

const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/

function decodeTools(tools: unknown): ToolDefinition[] {
  if (tools === undefined) return []
  if (!Array.isArray(tools)) throw new BadRequest('* GenerateContentRequest.tools: must be an array', 'tools')
  return tools.flatMap((rawTool, t) => {
    const declarations = record(rawTool).functionDeclarations ?? record(rawTool).function_declarations
    if (!Array.isArray(declarations)) return []
    return declarations.map((rawDeclaration, d) => {
      const declaration = record(rawDeclaration)
      const at = `tools[${t}].function_declarations[${d}].name`
      if (typeof declaration.name !== 'string' || !TOOL_NAME.test(declaration.name)) {
        throw new BadRequest(`* GenerateContentRequest.${at}: Invalid function name. Must start with a letter or an underscore and contain only a-z, A-Z, 0-9, underscores, dots, colons or dashes, with a maximum length of 128.`, at)
      }
      const schema = declaration.parametersJsonSchema ?? declaration.parameters
      return {
        name: declaration.name,
        ...(typeof declaration.description === 'string' ? { description: declaration.description } : {}),
        parameters: schema === undefined ? { type: 'object', properties: {} } : asJsonSchema(schema),
      }
    })
  })
}

function decodeToolChoice(config: Record<string, unknown>): ToolChoice | undefined {
  const mode = typeof config.mode === 'string' ? config.mode.toUpperCase() : undefined
  const allowed = Array.isArray(config.allowedFunctionNames) ? config.allowedFunctionNames : []
  if (mode === 'NONE') return 'none'
  if (mode === 'AUTO' || mode === 'VALIDATED') return 'auto'
  if (mode === 'ANY') return allowed.length === 1 && typeof allowed[0] === 'string' ? { type: 'tool', name: allowed[0] } : 'required'
  return undefined
}

function decodeGenerationConfig(config: Record<string, unknown>, request: ModelRequest): void {
  const temperature = config.temperature
  if (temperature !== undefined && !(typeof temperature === 'number' && temperature >= 0 && temperature <= 2)) {
    throw new BadRequest('* GenerateContentRequest.generation_config.temperature: must be a number from 0 to 2', 'generationConfig.temperature')
  }
  if (typeof temperature === 'number') request.temperature = temperature
  const maxTokens = config.maxOutputTokens
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && (maxTokens as number) > 0)) {
    throw new BadRequest('* GenerateContentRequest.generation_config.max_output_tokens: must be a positive integer', 'generationConfig.maxOutputTokens')
  }
  if (typeof maxTokens === 'number') request.maxTokens = maxTokens
  const schema = config.responseJsonSchema ?? config.responseSchema ?? config._responseJsonSchema
  if (config.responseMimeType === 'application/json' || schema !== undefined) {
    request.responseFormat = { type: 'json', ...(schema !== undefined ? { schema: asJsonSchema(schema) } : {}) }
  }
}

/**
 * Gemini's OpenAPI-flavoured schema (`type: 'OBJECT'`, `nullable`) as JSON Schema, so a
 * script and the default brain read one kind of schema whichever client sent it.
 */
export function asJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asJsonSchema)
  if (schema === null || typeof schema !== 'object') return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase()
    else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, asJsonSchema(property)]))
    } else out[key] = typeof value === 'object' ? asJsonSchema(value) : value
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Encoding answers

function encodePart(part: Part): Record<string, unknown>[] {
  if (!geminiSends(part)) return []
  if (part.type === 'text') return [{ text: part.text }]
  if (part.type === 'reasoning') return [{ text: part.text, thought: true }]
  if (part.type === 'tool-call') return [callPart(part)]
  return []
}

/**
 * A function call part. Gemini 3 models sign each call (`thoughtSignature`, opaque base64 beside
 * `functionCall`) and clients send the signature back with the call; Gemini CLI relies on it
 * (SPEC §17). The fake's signature is derived from the call id, so answers stay deterministic.
 */
function callPart(call: { id: string; name: string; args: unknown }): Record<string, unknown> {
  return { functionCall: { id: call.id, name: call.name, args: functionArgs(call.args) }, thoughtSignature: thoughtSignature(call.id) }
}

function thoughtSignature(callId: string): string {
  // btoa (in every runtime) takes bytes as latin1 characters: a scripted id may be any text.
  let binary = ''
  for (const byte of new TextEncoder().encode(`agent-doubles:${callId}`)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** `functionCall.args` is a JSON object on the wire. */
function functionArgs(args: unknown): unknown {
  const parsed = parseArguments(args)
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
}

/** Gemini's usage: `promptTokenCount` includes the cached part, reported (when any) as `cachedContentTokenCount`. */
function usageMetadata(usage: ModelResponse['usage']): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.inputTokens + usage.outputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.inputTokens }],
  }
  const cached = usage.cacheReadTokens ?? 0
  if (cached > 0) {
    metadata.cachedContentTokenCount = cached
    metadata.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: cached }]
  }
  return metadata
}

/** One `GenerateContentResponse`: the final one with `finish`, else a stream chunk with `outputSoFar` tokens. */
function responseChunk(parts: Record<string, unknown>[], context: EncodeContext, finish?: ModelResponse, outputSoFar = 0): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { parts, role: 'model' } }
  if (finish) candidate.finishReason = geminiFinishReason(finish)
  const finishMessage = finish && geminiFinishMessage(finish)
  if (finishMessage) candidate.finishMessage = finishMessage
  candidate.index = 0
  return {
    candidates: [candidate],
    usageMetadata: usageMetadata(finish?.usage ?? { ...(context.promptUsage ?? { inputTokens: estimateInputTokens(context.request) }), outputTokens: outputSoFar }),
    modelVersion: finish?.model ?? context.request.model,
    responseId: `resp_${context.id}`,
  }
}

function encodeJson(response: ModelResponse, context: EncodeContext): unknown {
  const parts = response.content.flatMap(encodePart)
  const answer = responseChunk(parts.length > 0 ? parts : [{ text: '' }], context, response)
  // Recorded answers with function calls say so in a finish message.
  if (response.content.some((part) => part.type === 'tool-call' && geminiSends(part))) (answer.candidates as Record<string, unknown>[])[0].finishMessage = 'Model generated function call(s).'
  return answer
}

/**
 * One chunk per text or reasoning delta and one per tool call (Gemini sends a call whole, with
 * its arguments as one object), each with the usage so far; then, as recorded traffic shows, a
 * last chunk of empty text carrying the finish reason and the full usage.
 */
function encodeStream(context: EncodeContext, emit: EmitFrame): StreamEncoder {
  const frame = (chunk: unknown): SseFrame => ({ data: JSON.stringify(chunk) })
  let streamed = ''
  return (event) => {
    if (event.type === 'finish') {
      emit(frame(responseChunk([{ text: '' }], context, event.response)))
      return
    }
    if (event.type === 'refusal-delta' || (event.type === 'tool-call' && !geminiSends(event))) return
    const part =
      event.type === 'tool-call'
        ? callPart(event)
        : event.type === 'reasoning-delta'
          ? { text: event.text, thought: true }
          : { text: event.text }
    streamed += event.type === 'tool-call' ? argumentsJson(event.args) : event.text
    emit(frame(responseChunk([part], context, undefined, estimateTokens(streamed))))
  }
}

function framing(context: EncodeContext): StreamFraming {
  return context.target?.query.get('alt') === 'sse' ? 'sse' : 'json-array'
}

/** Gemini's implicit caching over its own layout (SPEC §20). */
const generateTerms: PromptTerms = { layout: (json) => geminiLayout(json), implicit: true }

/** `countTokens` counts what a generate request with the same prompt would: it may wrap a whole one. */
const countTerms: PromptTerms = {
  layout: (json) => {
    const wrapped = json.generateContentRequest ?? json.generate_content_request
    return geminiLayout(wrapped && typeof wrapped === 'object' ? (wrapped as Record<string, unknown>) : json)
  },
  implicit: true,
}

/** `generateContent` and `streamGenerateContent`. */
export const geminiGenerate: ModelDialect = {
  id: 'gemini-generate',
  kind: 'model',
  toolCallIds: 'openai-call',
  errorStyle: 'openai',
  needs: [],
  decode: (json, target) => {
    const { model, method } = requireModel(target)
    return decodeGenerate(json, model, method === 'streamGenerateContent')
  },
  errorAnswer: geminiErrorAnswer,
  providerError: geminiProviderError,
  contextTooLongMessage: (tokens, window) => `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`,
  outputLimitError: geminiOutputLimitError,
  prompt: generateTerms,
  encodeJson,
  encodeStream,
  framing,
  streamError: (message) => [{ data: JSON.stringify(geminiErrorAnswer(500, message).body) }],
}

/** `countTokens`: the neutral estimate of the contents (or the wrapped generate request). */
export const geminiCountTokens: DirectDialect = {
  id: 'gemini-count-tokens',
  kind: 'direct',
  errorStyle: 'openai',
  needs: [],
  modelTraffic: false,
  errorAnswer: geminiErrorAnswer,
  providerError: geminiProviderError,
  decode: (json, target) => {
    const { model } = requireModel(target)
    const wrapped = record(json.generateContentRequest ?? json.generate_content_request)
    return decodeGenerate(wrapped.contents !== undefined ? wrapped : json, model, false)
  },
  // The count a generate request with the same prompt reports as its `promptTokenCount`.
  answer: async (request, context) => {
    const tokens = (await countPrompt('tokenizer', { prompt: countTerms }, context.json, request)).input
    return { totalTokens: tokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokens }] }
  },
}

/** The texts and dimensions of one embedding request. */
interface EmbedRequest {
  text: string
  dimensions: number
}

function decodeEmbedRequest(raw: unknown, at: string): EmbedRequest {
  const body = record(raw)
  const parts = record(body.content).parts
  if (!Array.isArray(parts) || parts.length === 0) throw new BadRequest(`* ${at}content.parts: content is not specified`, `${at}content`)
  const text = parts.map((part) => (typeof record(part).text === 'string' ? (record(part).text as string) : '')).join(' ')
  const message = `* ${at}output_dimensionality: must be an integer from 1 to 3072`
  return { text, dimensions: requestedDimensions(body.outputDimensionality ?? body.output_dimensionality, 3072, message, `${at}outputDimensionality`) }
}

/** The items of an `embedContent` (one) or `batchEmbedContents` (`requests`, at most 100) body. */
function embedItems(json: Record<string, unknown>, batch: boolean): EmbedRequest[] {
  if (!batch) return [decodeEmbedRequest(json, 'EmbedContentRequest.')]
  const requests = json.requests
  if (!Array.isArray(requests) || requests.length === 0) throw new BadRequest('* BatchEmbedContentsRequest.requests: requests is not specified', 'requests')
  if (requests.length > 100) throw new BadRequest('* BatchEmbedContentsRequest.requests: at most 100 requests can be in one batch', 'requests')
  return requests.map((item, index) => decodeEmbedRequest(item, `BatchEmbedContentsRequest.requests[${index}].`))
}

/** `embedContent` and `batchEmbedContents`. */
export const geminiEmbed: DirectDialect = {
  id: 'gemini-embed',
  kind: 'direct',
  errorStyle: 'openai',
  needs: ['embeddings'],
  errorAnswer: geminiErrorAnswer,
  providerError: geminiProviderError,
  decode: (json, target) => {
    const { model, method } = requireModel(target)
    const items = embedItems(json, method === 'batchEmbedContents')
    return { model: bareModel(model), messages: [{ role: 'user', content: items.map((item) => ({ type: 'text' as const, text: item.text })) }], stream: false }
  },
  answer: async (request, { json, path, embed }) => {
    const batch = path.endsWith(':batchEmbedContents')
    const vectors = await Promise.all(embedItems(json, batch).map((item) => embed(item.text, request.model, item.dimensions)))
    return batch ? { embeddings: vectors.map((values) => ({ values })) } : { embedding: { values: vectors[0] } }
  },
}

/** The models the Gemini list names. */
export const geminiModelIds: readonly string[] = Object.freeze(['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-embedding-001'])

function geminiModel(id: string): Record<string, unknown> {
  const embedding = id.includes('embedding')
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    description: `${id}, served by agent-doubles`,
    inputTokenLimit: embedding ? 2048 : 1_048_576,
    outputTokenLimit: embedding ? 1 : 65_536,
    supportedGenerationMethods: embedding ? ['embedContent', 'countTextTokens', 'countTokens'] : ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
    ...(embedding ? {} : { temperature: 1, topP: 0.95, topK: 64, maxTemperature: 2, thinking: true }),
  }
}

/** `GET /v1beta/models` and `GET /v1beta/models/{model}`. */
export const geminiModels: DirectDialect = {
  id: 'gemini-models',
  kind: 'direct',
  errorStyle: 'openai',
  needs: [],
  modelTraffic: false,
  errorAnswer: geminiErrorAnswer,
  providerError: geminiProviderError,
  decode: (): ModelRequest => ({ model: '', messages: [], stream: false }),
  answer: (_request, { path }) => {
    const one = GEMINI_MODELS_PATH.exec(path)?.[1]
    return one ? geminiModel(decodeSegment(one)) : { models: geminiModelIds.map(geminiModel) }
  },
}
