/**
 * Amazon Bedrock's Converse API (`POST /model/{modelId}/converse` and `/converse-stream`): JSON
 * answers, and streams as AWS event-stream messages (`messageStart`, `contentBlockStart` for a
 * tool call, `contentBlockDelta`, `contentBlockStop`, `messageStop`, `metadata`). Errors carry
 * their type in `x-amzn-errortype` and `{ message }` in the body, as the AWS SDK reads them.
 * @module
 */
import type { Message, ModelRequest, ModelResponse, Part, ToolChoice } from '../../llm/types.js'
import {
  BadRequest,
  argumentsJson,
  decodeToolList,
  numberOr,
  parseArguments,
  record,
  splitArguments,
  toolNameFor,
  type EncodeContext,
  type ModelDialect,
  type RequestTarget,
  type EmitFrame,
  type SseFrame,
  type StreamEncoder,
} from '../dialect.js'
import { bedrockErrorAnswer, bedrockProviderError, bedrockStreamErrorFor } from './errors.js'
import { converseOutputLimitError } from './limits.js'
import { converseLayout } from './cache.js'
import { decodeSegment } from '../params.js'
import { checkConverseFields } from './strict.js'
import { quoteValue } from '../shape.js'

/** `/model/{modelId}/{operation}`, capturing both. */
export const BEDROCK_MODEL_PATH = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream|count-tokens)$/

/** The model id and operation of a Bedrock path. */
export function bedrockTarget(target: RequestTarget | undefined): { modelId: string; operation: string } {
  const match = target && BEDROCK_MODEL_PATH.exec(target.path)
  if (!match) throw new BadRequest('the path must be /model/{modelId}/{operation}')
  return { modelId: decodeSegment(match[1]), operation: match[2] }
}

/** The tool the AI SDK forces for structured output on models without native support. */
const JSON_TOOL = 'json'

function forcedJsonTool(json: Record<string, unknown>): Record<string, unknown> | undefined {
  const config = record(json.toolConfig)
  const tools = Array.isArray(config.tools) ? config.tools.map((tool) => record(record(tool).toolSpec)) : []
  const choice = record(config.toolChoice)
  const forced = 'any' in choice || record(choice.tool).name === JSON_TOOL
  return forced && tools.length === 1 && tools[0].name === JSON_TOOL ? tools[0] : undefined
}

const ROLES = new Set(['user', 'assistant'])

function decode(json: Record<string, unknown>, target?: RequestTarget): ModelRequest {
  const { modelId, operation } = bedrockTarget(target)
  if (!Array.isArray(json.messages)) throw new BadRequest('1 validation error detected: Value null at \'messages\' failed to satisfy constraint: Member must not be null', 'messages')
  checkConverseFields(json)
  const messages: Message[] = []
  json.messages.forEach((raw, index) => decodeMessage(raw, index, messages))
  const request: ModelRequest = { model: modelId, messages, stream: operation === 'converse-stream' }
  const system = Array.isArray(json.system) ? json.system.flatMap((block) => (typeof record(block).text === 'string' ? [record(block).text as string] : [])) : []
  if (system.length > 0) request.system = system.join('\n')
  const jsonTool = forcedJsonTool(json)
  const format = record(record(record(json.additionalModelRequestFields).output_config).format)
  if (jsonTool) request.responseFormat = { type: 'json', schema: record(jsonTool.inputSchema).json }
  else if (format.type === 'json_schema') request.responseFormat = { type: 'json', schema: format.schema }
  if (!jsonTool) {
    const config = record(json.toolConfig)
    const tools = decodeToolList(config.tools, (tool) => {
      const spec = record(tool.toolSpec)
      return { name: spec.name, description: spec.description, schema: record(spec.inputSchema).json }
    })
    if (tools.length > 0) request.tools = tools
    const toolChoice = decodeToolChoice(record(config.toolChoice))
    if (toolChoice) request.toolChoice = toolChoice
  }
  const inference = record(json.inferenceConfig)
  const maxTokens = inference.maxTokens
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && (maxTokens as number) >= 1)) {
    throw new BadRequest(`1 validation error detected: Value '${quoteValue(maxTokens)}' at 'inferenceConfig.maxTokens' failed to satisfy constraint: Member must have value greater than or equal to 1`, 'inferenceConfig.maxTokens')
  }
  if (typeof maxTokens === 'number') request.maxTokens = maxTokens
  const temperature = numberOr(inference.temperature)
  if (temperature !== undefined && (temperature < 0 || temperature > 1)) {
    throw new BadRequest(`1 validation error detected: Value '${temperature}' at 'inferenceConfig.temperature' failed to satisfy constraint: Member must have value less than or equal to 1`, 'inferenceConfig.temperature')
  }
  if (temperature !== undefined) request.temperature = temperature
  return request
}

function decodeMessage(raw: unknown, index: number, messages: Message[]): void {
  const message = record(raw)
  const at = `messages.${index + 1}.member`
  if (message !== raw || !ROLES.has(message.role as string)) {
    throw new BadRequest(`1 validation error detected: Value '${quoteValue(message.role)}' at '${at}.role' failed to satisfy constraint: Member must satisfy enum value set: [user, assistant]`, `messages[${index}].role`)
  }
  if (!Array.isArray(message.content)) throw new BadRequest(`1 validation error detected: Value null at '${at}.content' failed to satisfy constraint: Member must not be null`, `messages[${index}].content`)
  const parts: Part[] = []
  const results: Part[] = []
  for (const rawBlock of message.content) {
    const block = record(rawBlock)
    if (typeof block.text === 'string') parts.push({ type: 'text', text: block.text })
    else if (block.toolUse) {
      const use = record(block.toolUse)
      parts.push({ type: 'tool-call', id: String(use.toolUseId ?? ''), name: String(use.name ?? ''), args: parseArguments(use.input ?? {}) })
    } else if (block.toolResult) {
      const result = record(block.toolResult)
      const id = String(result.toolUseId ?? '')
      const name = toolNameFor(messages, id)
      results.push({ type: 'tool-result', id, ...(name ? { name } : {}), result: toolResultOf(result.content), ...(result.status === 'error' ? { isError: true } : {}) })
    } else if (block.reasoningContent) {
      const text = record(record(block.reasoningContent).reasoningText).text
      if (typeof text === 'string') parts.push({ type: 'reasoning', text })
    } else if (block.image) {
      const image = record(block.image)
      const bytes = record(image.source).bytes
      parts.push({ type: 'image', ...(typeof image.format === 'string' ? { mediaType: `image/${image.format}` } : {}), ...(typeof bytes === 'string' ? { data: bytes } : {}) })
    }
  }
  // Tool results travel in user messages on this wire; the neutral model gives them a `tool` message.
  if (results.length > 0) messages.push({ role: 'tool', content: results })
  if (parts.length > 0 || (message.role === 'assistant' && results.length === 0)) messages.push({ role: message.role as 'user' | 'assistant', content: parts })
}

/** A tool result's blocks: their text when all are text, one `json` block's value, else the blocks. */
function toolResultOf(content: unknown): unknown {
  const blocks = Array.isArray(content) ? content.map(record) : []
  if (blocks.length > 0 && blocks.every((block) => typeof block.text === 'string')) return blocks.map((block) => block.text).join('')
  if (blocks.length === 1 && 'json' in blocks[0]) return blocks[0].json
  return content ?? ''
}

function decodeToolChoice(choice: Record<string, unknown>): ToolChoice | undefined {
  if ('auto' in choice) return 'auto'
  if ('any' in choice) return 'required'
  const tool = record(choice.tool)
  if (typeof tool.name === 'string') return { type: 'tool', name: tool.name }
  return undefined
}

const stopReasons = { stop: 'end_turn', 'tool-calls': 'tool_use', length: 'max_tokens', 'content-filter': 'content_filtered', refusal: 'content_filtered' } as const

/**
 * Bedrock's usage: `inputTokens` is the uncached rest of the prompt; cache reads and writes are
 * reported apart (when the prompt cache was used) and `totalTokens` adds them all.
 */
function usage(response: ModelResponse): Record<string, number> {
  const { inputTokens, outputTokens, cacheReadTokens: read = 0, cacheWriteTokens: write = 0 } = response.usage
  const uncached = inputTokens - read - write
  const usage: Record<string, number> = { inputTokens: uncached, outputTokens, totalTokens: inputTokens + outputTokens }
  if (read > 0 || write > 0) {
    usage.cacheReadInputTokens = read
    usage.cacheWriteInputTokens = write
  }
  return usage
}

/** `toolUse.input` is a JSON object on the wire. */
function toolInput(args: unknown): unknown {
  const parsed = parseArguments(args)
  return parsed !== null && typeof parsed === 'object' ? parsed : {}
}

/** A text answer to a forced `json` tool becomes that tool's call. */
function asJsonToolAnswer(response: ModelResponse): ModelResponse {
  if (response.content.some((part) => part.type === 'tool-call')) return response
  const text = response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
  return { ...response, content: [{ type: 'tool-call', id: 'tooluse_json', name: JSON_TOOL, args: parseArguments(text) }], finishReason: 'tool-calls' }
}

function encodeBlock(part: Part): unknown[] {
  // A refusal's words are text; `stopReason` says what they are.
  if (part.type === 'text' || part.type === 'refusal') return [{ text: part.text }]
  if (part.type === 'tool-call') return [{ toolUse: { toolUseId: part.id, name: part.name, input: toolInput(part.args) } }]
  if (part.type === 'reasoning') return [{ reasoningContent: { reasoningText: { text: part.text, signature: 'agent-doubles' } } }]
  return []
}

function encodeJson(response: ModelResponse, context: EncodeContext): unknown {
  const answer = forcedJsonTool(context.json) ? asJsonToolAnswer(response) : response
  return {
    output: { message: { role: 'assistant', content: answer.content.flatMap(encodeBlock) } },
    stopReason: stopReasons[answer.finishReason] ?? 'end_turn',
    usage: usage(answer),
    metrics: { latencyMs: 1 },
  }
}

function encodeStream(context: EncodeContext, emit: EmitFrame): StreamEncoder {
  const frame = (event: string, data: Record<string, unknown>): SseFrame => ({ event, data: JSON.stringify(data) })
  const jsonTool = forcedJsonTool(context.json) !== undefined
  let index = -1
  let open: 'text' | 'reasoning' | undefined
  let jsonText = ''
  let sentTool = false
  const close = (): void => {
    if (open === 'reasoning') emit(frame('contentBlockDelta', { contentBlockIndex: index, delta: { reasoningContent: { signature: 'agent-doubles' } } }))
    if (open) emit(frame('contentBlockStop', { contentBlockIndex: index }))
    open = undefined
  }
  const toolBlock = (id: string, name: string, args: unknown, argsText?: string): void => {
    sentTool = true
    close()
    index++
    emit(frame('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: id, name } } }))
    // Arguments the model wrote itself (cut short, or not JSON) stream as they are: the deltas are text.
    for (const input of splitArguments(argsText ?? argumentsJson(toolInput(args)))) emit(frame('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input } } }))
    emit(frame('contentBlockStop', { contentBlockIndex: index }))
  }
  emit(frame('messageStart', { role: 'assistant' }))
  return (event) => {
    if (event.type === 'text-delta' && jsonTool) jsonText += event.text
    else if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
      const kind = event.type === 'reasoning-delta' ? 'reasoning' : 'text'
      if (open !== kind) {
        close()
        index++
        open = kind
      }
      const delta = kind === 'text' ? { text: event.text } : { reasoningContent: { text: event.text } }
      emit(frame('contentBlockDelta', { contentBlockIndex: index, delta }))
    } else if (event.type === 'tool-call') {
      toolBlock(event.id, event.name, event.args, event.argsText)
    } else if (event.type === 'finish') {
      close()
      let reason = event.response.finishReason
      if (jsonTool && !sentTool) {
        toolBlock('tooluse_json', JSON_TOOL, parseArguments(jsonText))
        reason = 'tool-calls'
      }
      emit(frame('messageStop', { stopReason: stopReasons[reason] ?? 'end_turn' }))
      emit(frame('metadata', { usage: usage(event.response), metrics: { latencyMs: 1 } }))
    }
  }
}

/** `POST /model/{modelId}/converse` and `/converse-stream`. */
export const bedrockConverse: ModelDialect = {
  id: 'bedrock-converse',
  kind: 'model',
  toolCallIds: 'bedrock-tool-use',
  errorStyle: 'openai',
  needs: [],
  decode,
  errorAnswer: bedrockErrorAnswer,
  providerError: bedrockProviderError,
  outputLimitError: converseOutputLimitError,
  prompt: { layout: (json) => converseLayout(json) },
  encodeJson,
  encodeStream,
  framing: () => 'eventstream',
  streamError: (message, _framesSent, _context, name) => [bedrockStreamErrorFor(message, name)],
}
