/**
 * OpenAI Responses (`POST /v1/responses`), JSON and SSE, per `reference/wire-protocols.md` §3.
 * @module
 */
import type { Message, ModelRequest, ModelResponse, Part, ToolChoice, ToolDefinition } from '../../llm/types.js'
import {
  appendPart,
  argumentsJson,
  callArgumentsText,
  decodeToolList,
  imageFromUrl,
  numberOr,
  optionalString,
  parseArguments,
  record,
  requireString,
  splitArguments,
  textOf,
  toolNameFor,
  BadRequest,
  type EncodeContext,
  type ModelDialect,
  type RequestTarget,
  type EmitFrame,
  type SseFrame,
  type StreamEncoder,
} from '../dialect.js'
import { wireId, type WireIdKind } from '../wire-ids.js'
import type { CarriedContext, ResponseMemory } from '../response-memory.js'
import { openaiProviderError } from '../openai-chat/errors.js'
import { openaiOutputLimitError } from '../openai-chat/limits.js'
import { responsesLayout } from './cache.js'
import { validateResponses } from './validate.js'

/** The OpenAI Responses dialect. */
export const openaiResponses: ModelDialect = {
  id: 'openai-responses',
  kind: 'model',
  errorStyle: 'openai',
  providerError: openaiProviderError,
  outputLimitError: (_json, requested, max) => openaiOutputLimitError('max_output_tokens', requested, max),
  validate: (json, memory) => validateResponses(json, (id) => memory.get(id)),
  prompt: { layout: (json, _request, roles) => responsesLayout(json, roles) },
  needs: ['responses_api'],
  toolCallIds: 'openai-call',
  decode,
  encodeJson,
  encodeStream,
  streamError,
}

/**
 * What real traffic sends when a started stream fails: an `error` event (its details nested
 * under `error`, as recorded) and then `response.failed`. Every event before took one sequence
 * number, from 0.
 */
function streamError(message: string, framesSent: number, context: EncodeContext): SseFrame[] {
  const error = { type: 'server_error', code: 'server_error', message, param: null }
  const failed = { ...responseObject(context, 'failed', []), error: { code: error.code, message } }
  return [
    { event: 'error', data: JSON.stringify({ type: 'error', sequence_number: framesSent, error }) },
    { event: 'response.failed', data: JSON.stringify({ type: 'response.failed', sequence_number: framesSent + 1, response: failed }) },
  ]
}

/** The id of output item `n` of this answer. */
function itemId(kind: WireIdKind, context: EncodeContext, n: number): string {
  return wireId(kind, `${context.id}/${n}`)
}

function decode(json: Record<string, unknown>, _target?: RequestTarget, memory?: ResponseMemory): ModelRequest {
  const model = requireString(json, 'model')
  // A conversation continued with `previous_response_id` starts from what that response saw and
  // said, and from the developer text and tools its input items offered (instructions and the
  // `tools` parameter are not carried over, as with OpenAI).
  const previousId = typeof json.previous_response_id === 'string' ? json.previous_response_id : undefined
  const previous = previousId !== undefined ? memory?.get(previousId) : undefined
  const earlier = previousId !== undefined ? memory?.carried(previousId) : undefined
  const messages: Message[] = previous ? structuredClone(previous) as Message[] : []
  const inputSystem: string[] = []
  if (typeof json.input === 'string') messages.push({ role: 'user', content: [{ type: 'text', text: json.input }] })
  else if (Array.isArray(json.input)) json.input.forEach((raw, n) => decodeItem(record(raw), `input[${n}]`, inputSystem, messages, memory))
  else throw new BadRequest('input must be a string or an array of input items', 'input')
  const request: ModelRequest = { model, messages, stream: json.stream === true }
  const instructions = typeof json.instructions === 'string' && json.instructions !== '' ? [json.instructions] : []
  const system = [...instructions, ...(earlier?.system ?? []), ...inputSystem]
  if (system.length > 0) request.system = system.join('\n\n')
  const tools = [...decodeTools(json.tools), ...(earlier?.tools ?? []), ...offeredTools(json.input)]
  if (tools.length > 0) request.tools = tools
  const toolChoice = decodeToolChoice(json.tool_choice)
  if (toolChoice) request.toolChoice = toolChoice
  const format = record(record(json.text).format)
  if (format.type === 'json_schema') {
    request.responseFormat = { type: 'json', schema: format.schema, ...(typeof format.name === 'string' ? { name: format.name } : {}) }
  } else if (format.type === 'json_object') request.responseFormat = { type: 'json' }
  const maxTokens = numberOr(json.max_output_tokens)
  if (maxTokens !== undefined) request.maxTokens = maxTokens
  const temperature = numberOr(json.temperature)
  if (temperature !== undefined) request.temperature = temperature
  return request
}

/** The tools offered in input items (`additional_tools`, Codex's default models, in namespaces). */
function offeredTools(input: unknown): ToolDefinition[] {
  if (!Array.isArray(input)) return []
  return input.map(record).filter((item) => item.type === 'additional_tools').flatMap((item) => decodeTools(item.tools))
}

/** The text of a request's `developer` and `system` input items, in order. */
function inputSystemText(input: unknown): string[] {
  if (!Array.isArray(input)) return []
  return input.map(record).filter((item) => isSystemItem(item)).map((item) => textOf(item.content))
}

/** Whether an input item is developer or system text (a message, not a tool list). */
function isSystemItem(item: Record<string, unknown>): boolean {
  return (item.role === 'system' || item.role === 'developer') && item.type !== 'additional_tools'
}

/**
 * What a response passes on besides its messages: what the response it continued passed on,
 * then its own input's developer text and offered tools.
 */
function carriedBy(json: Record<string, unknown>, memory: ResponseMemory): CarriedContext {
  const earlier = typeof json.previous_response_id === 'string' ? memory.carried(json.previous_response_id) : undefined
  return {
    system: [...(earlier?.system ?? []), ...inputSystemText(json.input)],
    tools: [...(earlier?.tools ?? []), ...offeredTools(json.input)],
  }
}

function decodeItem(item: Record<string, unknown>, at: string, system: string[], messages: Message[], memory: ResponseMemory | undefined): void {
  if (item.type === 'function_call') {
    const id = optionalString(item.call_id, `${at}.call_id`)
    appendPart(messages, 'assistant', { type: 'tool-call', id, name: optionalString(item.name, `${at}.name`), args: parseArguments(item.arguments) })
  } else if (item.type === 'custom_tool_call') {
    // A freeform tool's call: its input is text, kept as the call's args.
    const id = optionalString(item.call_id, `${at}.call_id`)
    appendPart(messages, 'assistant', { type: 'tool-call', id, name: optionalString(item.name, `${at}.name`), args: typeof item.input === 'string' ? item.input : '' })
  } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
    const id = optionalString(item.call_id, `${at}.call_id`)
    const name = toolNameFor(messages, id)
    const result = typeof item.output === 'string' ? item.output : textOf(item.output)
    appendPart(messages, 'tool', { type: 'tool-result', id, ...(name ? { name } : {}), result })
  } else if (item.type === 'reasoning') {
    const text = textOf(item.summary)
    if (text !== '') appendPart(messages, 'assistant', { type: 'reasoning', text })
  } else if (isSystemItem(item)) {
    system.push(textOf(item.content))
  } else if (item.role === 'assistant') {
    const text = textOf(item.content)
    if (text !== '') appendPart(messages, 'assistant', { type: 'text', text })
  } else if (item.role === 'user') {
    messages.push({ role: 'user', content: decodeUserContent(item.content) })
  } else if (item.type === 'item_reference' && typeof item.id === 'string') {
    // The AI SDK replays earlier answers by id (`store` defaults to true): put back what we sent.
    for (const message of memory?.get(item.id) ?? []) for (const part of message.content) appendPart(messages, 'assistant', structuredClone(part))
  }
}

/**
 * Notes an output item this dialect sent under its id, so a later `item_reference` input item
 * decodes to what it stands for.
 */
function remember(memory: ResponseMemory | undefined, id: string, part: Part): void {
  memory?.set(id, [{ role: 'assistant', content: [part] }])
}

/**
 * Notes an answered response's conversation under its id: its input plus its output (none for
 * a prewarm's empty answer), and what its input items carry over.
 */
function rememberConversation(context: EncodeContext, response: ModelResponse): void {
  const { memory } = context
  if (!memory) return
  const output: Message[] = response.content.length > 0 ? [{ role: 'assistant', content: response.content }] : []
  memory.set(wireId('response', context.id), [...context.request.messages, ...output], carriedBy(context.json, memory))
}

function decodeUserContent(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }]
  const parts: Part[] = []
  for (const raw of Array.isArray(content) ? content : []) {
    const block = record(raw)
    if ((block.type === 'input_text' || block.type === 'text') && typeof block.text === 'string') parts.push({ type: 'text', text: block.text })
    else if (block.type === 'input_image' && typeof block.image_url === 'string') parts.push(imageFromUrl(block.image_url))
  }
  return parts
}

function decodeTools(tools: unknown, namespace?: string): ToolDefinition[] {
  if (!Array.isArray(tools)) return []
  return tools.flatMap((raw): ToolDefinition[] => {
    const tool = record(raw)
    // A namespace groups tools (Codex's `functions`, `clock`, …): each is offered under its own name.
    if (tool.type === 'namespace') return decodeTools(tool.tools, typeof tool.name === 'string' ? tool.name : undefined)
    const custom = tool.type === 'custom'
    if ((tool.type !== 'function' && !custom) || typeof tool.name !== 'string') return []
    const [decoded] = decodeToolList([tool], () => ({ name: tool.name, description: tool.description, schema: custom ? (tool.format ?? { type: 'text' }) : tool.parameters }))
    return [{ ...decoded, ...(custom ? { custom: true as const } : {}), ...(namespace !== undefined ? { namespace } : {}) }]
  })
}

/**
 * Whether a call of `name` goes out as a `custom_tool_call`: the request offers `name` as a
 * custom tool, or the call's input is text and no function tool of that name is offered
 * (`customToolCall(name, input)`).
 */
function isCustomCall(call: { name: string; args: unknown }, context: EncodeContext): boolean {
  const tool = context.request.tools?.find((offered) => offered.name === call.name)
  return tool ? tool.custom === true : typeof call.args === 'string'
}

/** The namespace a call's tool was offered in, when it is not the default `functions` one. */
function namespaceOf(name: string, context: EncodeContext): string | undefined {
  const namespace = context.request.tools?.find((offered) => offered.name === name)?.namespace
  return namespace === undefined || namespace === 'functions' ? undefined : namespace
}

/** A custom tool's input: the scripted text, or JSON text when the script gave an object. */
function customInput(args: unknown): string {
  return typeof args === 'string' ? args : argumentsJson(args)
}

function decodeToolChoice(choice: unknown): ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice
  const name = record(choice).name
  return typeof name === 'string' ? { type: 'tool', name } : undefined
}

type OutputItem = Record<string, unknown> & { id: string }

function messageItem(id: string, text: string, status: string): OutputItem {
  return { id, type: 'message', status, role: 'assistant', content: status === 'in_progress' ? [] : [textPart(text)] }
}

function textPart(text: string): Record<string, unknown> {
  return { type: 'output_text', annotations: [], logprobs: [], text }
}

function callItem(id: string, call: { id: string; name: string; args: unknown; argsText?: string }, status: string, context?: EncodeContext): OutputItem {
  if (context && isCustomCall(call, context)) {
    return { id, type: 'custom_tool_call', status, call_id: call.id, name: call.name, input: status === 'in_progress' ? '' : customInput(call.args) }
  }
  const namespace = context ? namespaceOf(call.name, context) : undefined
  return {
    id,
    type: 'function_call',
    status,
    arguments: status === 'in_progress' ? '' : callArgumentsText(call),
    call_id: call.id,
    name: call.name,
    ...(namespace !== undefined ? { namespace } : {}),
  }
}

/** A message whose content is a refusal: the `refusal` content part real traffic carries. */
function refusalItem(id: string, text: string, status: string): OutputItem {
  return { id, type: 'message', status, role: 'assistant', content: status === 'in_progress' ? [] : [refusalPart(text)] }
}

function refusalPart(text: string): Record<string, unknown> {
  return { type: 'refusal', refusal: text }
}

function reasoningItem(id: string, text: string, done: boolean): OutputItem {
  return { id, type: 'reasoning', summary: done ? [{ type: 'summary_text', text }] : [] }
}

/** The output items of a whole answer: consecutive text in one message, each call its own item. */
function outputItems(content: readonly Part[], context: EncodeContext): OutputItem[] {
  const items: OutputItem[] = []
  content.forEach((part, n) => {
    const last = items.at(-1)
    if (part.type === 'text') {
      if (last?.type === 'message') (last.content as { text: string }[])[0].text += part.text
      else items.push(messageItem(itemId('response-message', context, n), part.text, 'completed'))
    } else if (part.type === 'refusal') items.push(refusalItem(itemId('response-message', context, n), part.text, 'completed'))
    else if (part.type === 'tool-call') items.push(callItem(itemId('function-call-item', context, n), part, 'completed', context))
    else if (part.type === 'reasoning') items.push(reasoningItem(itemId('reasoning-item', context, n), part.text, true))
  })
  return items
}

/**
 * The response object with every field of recorded real traffic, echoing what the request set.
 * `service_tier` is `auto` until the answer is done, then the tier that served it, as recorded.
 */
function responseObject(context: EncodeContext, status: string, output: OutputItem[], response?: ModelResponse): Record<string, unknown> {
  const json = context.json
  const incomplete = response?.finishReason === 'length' ? 'max_output_tokens' : response?.finishReason === 'content-filter' ? 'content_filter' : undefined
  const done = status === 'completed'
  return {
    id: wireId('response', context.id),
    object: 'response',
    created_at: context.created,
    status: incomplete && done ? 'incomplete' : status,
    background: json.background ?? false,
    completed_at: done ? context.created : null,
    error: null,
    frequency_penalty: json.frequency_penalty ?? 0,
    incomplete_details: incomplete ? { reason: incomplete } : null,
    instructions: json.instructions ?? null,
    max_output_tokens: json.max_output_tokens ?? null,
    max_tool_calls: json.max_tool_calls ?? null,
    model: response?.model ?? context.request.model,
    moderation: null,
    output,
    parallel_tool_calls: json.parallel_tool_calls ?? true,
    presence_penalty: json.presence_penalty ?? 0,
    previous_response_id: json.previous_response_id ?? null,
    prompt_cache_key: json.prompt_cache_key ?? null,
    prompt_cache_retention: json.prompt_cache_retention ?? null,
    reasoning: { effort: record(json.reasoning).effort ?? null, summary: record(json.reasoning).summary ?? null },
    safety_identifier: json.safety_identifier ?? null,
    service_tier: done ? 'default' : (json.service_tier ?? 'auto'),
    store: json.store ?? true,
    temperature: json.temperature ?? 1,
    text: { format: record(json.text).format ?? { type: 'text' }, verbosity: record(json.text).verbosity ?? 'medium' },
    tool_choice: json.tool_choice ?? 'auto',
    tools: json.tools ?? [],
    top_logprobs: json.top_logprobs ?? 0,
    top_p: json.top_p ?? 1,
    truncation: json.truncation ?? 'disabled',
    usage: response ? usageOf(response) : null,
    user: json.user ?? null,
    metadata: json.metadata ?? {},
  }
}

function usageOf(response: ModelResponse): unknown {
  const { inputTokens, outputTokens } = response.usage
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: response.usage.cacheReadTokens ?? 0, cache_write_tokens: response.usage.cacheWriteTokens ?? 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  }
}

function encodeJson(response: ModelResponse, context: EncodeContext): unknown {
  const items = outputItems(response.content, context)
  for (const item of items) rememberItem(context.memory, item)
  rememberConversation(context, response)
  return responseObject(context, 'completed', items, response)
}

function rememberItem(memory: ResponseMemory | undefined, item: OutputItem): void {
  const first = item.type === 'message' ? (item.content as { type: string; text?: string; refusal?: string }[])[0] : undefined
  if (first?.type === 'refusal') remember(memory, item.id, { type: 'refusal', text: first.refusal ?? '' })
  else if (item.type === 'message') remember(memory, item.id, { type: 'text', text: first?.text ?? '' })
  else if (item.type === 'reasoning') remember(memory, item.id, { type: 'reasoning', text: textOf(item.summary) })
  else if (item.type === 'function_call') {
    remember(memory, item.id, { type: 'tool-call', id: item.call_id as string, name: item.name as string, args: parseArguments(item.arguments) })
  } else if (item.type === 'custom_tool_call') {
    remember(memory, item.id, { type: 'tool-call', id: item.call_id as string, name: item.name as string, args: item.input })
  }
}

function encodeStream(context: EncodeContext, emit: EmitFrame): StreamEncoder {
  let sequence = 0
  const frame = (type: string, fields: Record<string, unknown>): SseFrame => ({
    event: type,
    data: JSON.stringify({ type, ...fields, sequence_number: sequence++ }),
  })
  const output: OutputItem[] = []
  // The open item's delta frames differ only in the text and the sequence number: their head
  // is serialised once when the item opens.
  let open: { item: OutputItem; kind: 'text' | 'reasoning' | 'refusal'; text: string; deltaType: string; deltaHead: string; deltaTail: string } | undefined

  const closeOpen = (): void => {
    if (!open) return
    const { item, kind, text } = open
    const at = { item_id: item.id, output_index: output.length }
    open = undefined
    if (kind === 'text') {
      emit(frame('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] }))
      emit(frame('response.content_part.done', { ...at, content_index: 0, part: textPart(text) }))
      output.push(messageItem(item.id, text, 'completed'))
      rememberItem(context.memory, output.at(-1) as OutputItem)
    } else if (kind === 'refusal') {
      emit(frame('response.refusal.done', { ...at, content_index: 0, refusal: text }))
      emit(frame('response.content_part.done', { ...at, content_index: 0, part: refusalPart(text) }))
      output.push(refusalItem(item.id, text, 'completed'))
      rememberItem(context.memory, output.at(-1) as OutputItem)
    } else {
      emit(frame('response.reasoning_summary_text.done', { ...at, summary_index: 0, text }))
      emit(frame('response.reasoning_summary_part.done', { ...at, summary_index: 0, part: { type: 'summary_text', text } }))
      output.push(reasoningItem(item.id, text, true))
      rememberItem(context.memory, output.at(-1) as OutputItem)
    }
    emit(frame('response.output_item.done', { output_index: output.length - 1, item: output.at(-1) }))
  }

  const started = responseObject(context, 'in_progress', [])
  emit(frame('response.created', { response: started }))
  emit(frame('response.in_progress', { response: started }))
  return (event) => {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta' || event.type === 'refusal-delta') {
      const kind = event.type === 'text-delta' ? 'text' : event.type === 'refusal-delta' ? 'refusal' : 'reasoning'
      if (open?.kind !== kind) {
        closeOpen()
        const n = output.length
        const item =
          kind === 'text'
            ? messageItem(itemId('response-message', context, n), '', 'in_progress')
            : kind === 'refusal'
              ? refusalItem(itemId('response-message', context, n), '', 'in_progress')
              : reasoningItem(itemId('reasoning-item', context, n), '', false)
        const type = kind === 'text' ? 'response.output_text.delta' : kind === 'refusal' ? 'response.refusal.delta' : 'response.reasoning_summary_text.delta'
        const index = kind === 'reasoning' ? '"summary_index":0' : '"content_index":0'
        const deltaHead = `{"type":"${type}","item_id":${JSON.stringify(item.id)},"output_index":${n},${index},"delta":`
        open = { item, kind, text: '', deltaType: type, deltaHead, deltaTail: kind === 'text' ? ',"logprobs":[],"sequence_number":' : ',"sequence_number":' }
        emit(frame('response.output_item.added', { output_index: n, item }))
        if (kind === 'text') emit(frame('response.content_part.added', { item_id: item.id, output_index: n, content_index: 0, part: textPart('') }))
        else if (kind === 'refusal') emit(frame('response.content_part.added', { item_id: item.id, output_index: n, content_index: 0, part: refusalPart('') }))
        else emit(frame('response.reasoning_summary_part.added', { item_id: item.id, output_index: n, summary_index: 0, part: { type: 'summary_text', text: '' } }))
      }
      open.text += event.text
      emit({ event: open.deltaType, data: `${open.deltaHead}${JSON.stringify(event.text)}${open.deltaTail}${sequence++}}` })
    } else if (event.type === 'tool-call') {
      closeOpen()
      const n = output.length
      const id = itemId('function-call-item', context, n)
      emit(frame('response.output_item.added', { output_index: n, item: callItem(id, event, 'in_progress', context) }))
      if (isCustomCall(event, context)) {
        // A freeform tool's input streams as text, as the API sends it.
        const input = customInput(event.args)
        for (const delta of splitArguments(input)) emit(frame('response.custom_tool_call_input.delta', { item_id: id, output_index: n, delta }))
        emit(frame('response.custom_tool_call_input.done', { item_id: id, output_index: n, input }))
      } else {
        const args = callArgumentsText(event)
        for (const delta of splitArguments(args)) emit(frame('response.function_call_arguments.delta', { item_id: id, output_index: n, delta }))
        emit(frame('response.function_call_arguments.done', { item_id: id, output_index: n, arguments: args }))
      }
      output.push(callItem(id, event, 'completed', context))
      rememberItem(context.memory, output.at(-1) as OutputItem)
      emit(frame('response.output_item.done', { output_index: n, item: output.at(-1) }))
    } else if (event.type === 'finish') {
      closeOpen()
      rememberConversation(context, event.response)
      const response = responseObject(context, 'completed', output, event.response)
      emit(frame(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response }))
    }
  }
}
