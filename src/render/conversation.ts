/**
 * Renders what the doubles recorded as a readable conversation — roles, text, tool calls and
 * results, tools offered, model — for snapshots and failure context. Pure functions over
 * recorded data; no test runner, no masking (see ./mask.ts).
 * @module
 */
import type { Message, ModelRequest, ModelResponse, Part, ToolDefinition } from '../llm/types.js'
import type { FakeRequest, Refusal } from '../server/types.js'

/** One model call as the renderer sees it. @internal */
export interface Turn {
  /** e.g. `POST /v1/chat/completions · openai-chat · model "gpt-5"`. */
  header: string
  request: ModelRequest
  /** The reply, `undefined` when none was recorded; `note` says why. */
  response: ModelResponse | undefined
  note?: string
}

/** The lines of a sequence of model calls, each showing only what is new since the previous one. @internal */
export function renderTurns(turns: readonly Turn[], firstNumber = 1): string[] {
  const lines: string[] = []
  let previous: Turn | undefined
  turns.forEach((turn, i) => {
    lines.push(`#${firstNumber + i} ${turn.header}`)
    lines.push(...indent(renderRequest(turn.request, previous)))
    lines.push(...indent(renderReply(turn)))
    previous = turn
  })
  return lines
}

/** The lines of one request on its own: system, tools offered, every message. @internal */
export function renderRequest(request: ModelRequest, previous?: Turn): string[] {
  const lines: string[] = []
  const before = previous?.request
  if (request.system !== undefined && request.system !== before?.system) lines.push(...labelled('system', request.system))
  const tools = (request.tools ?? []).map((tool) => tool.name).join(', ')
  // A changed description or parameter schema is a changed prompt (SPEC §21): compared whole.
  const offered = renderTools(request.tools ?? [])
  if (tools !== '' && (before === undefined || offered.join('\n') !== renderTools(before.tools ?? []).join('\n'))) lines.push(`tools offered: ${tools}`, ...indent(offered))
  if (request.toolChoice !== undefined && request.toolChoice !== 'auto') lines.push(`tool choice: ${typeof request.toolChoice === 'string' ? request.toolChoice : request.toolChoice.name}`)
  if (request.responseFormat) lines.push(`response format: json${request.responseFormat.schema ? ' (with schema)' : ''}`)
  const names = toolNames(request, previous?.response)
  for (const message of newMessages(request, previous)) lines.push(...renderMessage(message, names))
  return lines
}

/**
 * One line per offered tool: its name, description and parameter schema (as compact JSON), so a
 * snapshot shows what the model was told about each tool.
 */
function renderTools(tools: readonly ToolDefinition[]): string[] {
  return tools.map((tool) => `${tool.name}${tool.description ? `: ${tool.description.replace(/\s*\n\s*/g, ' ')}` : ''} · parameters ${json(tool.parameters ?? {})}`)
}

function renderReply(turn: Turn): string[] {
  if (!turn.response) return [`reply: (${turn.note ?? 'none recorded'})`]
  const parts = turn.response.content.flatMap((part) => labelled('reply', renderPart(part)))
  return parts.length ? parts : ['reply: (empty)']
}

/**
 * The messages of `request` that the previous call did not already show: the previous request's
 * messages and, right after them, an assistant message carrying the reply it got. When the
 * history does not continue (a new conversation), every message.
 */
function newMessages(request: ModelRequest, previous: Turn | undefined): Message[] {
  const messages = request.messages
  if (!previous) return messages
  const shown = previous.request.messages
  if (shown.length > messages.length || !shown.every((message, i) => sameMessage(message, messages[i]))) return messages
  let start = shown.length
  const echoed = messages[start]
  if (echoed?.role === 'assistant' && previous.response && signature(echoed.content) === signature(previous.response.content)) start++
  return messages.slice(start)
}

function sameMessage(a: Message, b: Message | undefined): boolean {
  return b !== undefined && a.role === b.role && signature(a.content) === signature(b.content)
}

/** What a list of parts says, leaving out ids and reasoning (dialects carry those differently). */
function signature(parts: readonly Part[]): string {
  return JSON.stringify(
    parts
      .filter((part) => part.type !== 'reasoning')
      .map((part) => (part.type === 'tool-call' ? [part.name, part.args] : part.type === 'tool-result' ? [part.result] : part)),
  )
}

/** Tool names by call id, so a result whose wire format names no tool still reads as one. */
function toolNames(request: ModelRequest, previousResponse: ModelResponse | undefined): Map<string, string> {
  const names = new Map<string, string>()
  const parts = [...request.messages.flatMap((message) => message.content), ...(previousResponse?.content ?? [])]
  for (const part of parts) if (part.type === 'tool-call') names.set(part.id, part.name)
  return names
}

function renderMessage(message: Message, names: Map<string, string>): string[] {
  return message.content.flatMap((part) => {
    const role = part.type === 'tool-result' ? `tool ${part.name ?? names.get(part.id) ?? '(unknown)'}` : message.role
    return labelled(role, renderPart(part))
  })
}

function renderPart(part: Part): string {
  switch (part.type) {
    case 'text':
      return part.text
    case 'reasoning':
      return `(reasoning) ${part.text}`
    case 'tool-call':
      return `${part.name}(${json(part.args)})`
    case 'tool-result': {
      const result = typeof part.result === 'string' ? part.result : json(part.result)
      return part.isError ? `(error) ${result}` : result
    }
    case 'image':
      return `[image${part.mediaType ? ` ${part.mediaType}` : ''}${part.url ? ` ${part.url}` : ''}${part.data ? ` ${part.data.length} base64 chars` : ''}]`
  }
}

/** `label: first line`, later lines indented under it. */
function labelled(label: string, text: string, separator = ': '): string[] {
  const [first, ...rest] = text.split('\n')
  return [`${label}${separator}${first}`, ...rest.map((line) => `  ${line}`)]
}

function indent(lines: string[], by = '  '): string[] {
  return lines.map((line) => (line === '' ? line : `${by}${line}`))
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** A proxy request's header: `POST /v1/chat/completions · openai-chat · model "gpt-5" · agent "r"`. @internal */
export function fakeRequestHeader(request: FakeRequest): string {
  const parts = [`${request.method} ${request.path}`, request.dialect]
  if (request.model !== undefined) parts.push(`model ${JSON.stringify(request.model)}`)
  if (request.agent !== undefined) parts.push(`agent ${JSON.stringify(request.agent)}`)
  if (request.subagent !== undefined) parts.push(`subagent ${JSON.stringify(request.subagent)}`)
  if (request.stream) parts.push('stream')
  return parts.join(' · ')
}

/** A model request's header: `model "gpt-5"` (· stream). @internal */
export function modelRequestHeader(request: ModelRequest): string {
  return `model ${JSON.stringify(request.model)}${request.stream ? ' · stream' : ''}`
}

/** The turns of a FakeProxy (or lane), oldest first. @internal */
export function proxyTurns(requests: readonly FakeRequest[]): Turn[] {
  return requests.map((request) => ({
    header: fakeRequestHeader(request),
    request: request.request,
    response: request.response,
    note: missingReplyNote(request),
  }))
}

/**
 * Why a proxy turn has no neutral reply: the brain's failure in its own words (`script
 * exhausted at turn 3`, `replay miss at call 2`), the error it was answered with, or a reply
 * the proxy never decoded (`reply()`, a fault, a forwarded call).
 */
function missingReplyNote(request: FakeRequest): string {
  const message = request.error?.message
  if (message === undefined) return 'no neutral reply recorded: reply(), a fault or a forwarded call'
  const exhausted = /script exhausted at turn (\d+)(?: \(the script has (\d+ turns?))?/.exec(message)
  if (exhausted) return `script exhausted at turn ${exhausted[1]}${exhausted[2] ? `: the script has ${exhausted[2]}` : ''}`
  const miss = /replay miss at call (\d+): no recorded turn of (\S+) matches/.exec(message)
  if (miss) return `replay miss at call ${miss[1]}: no recorded turn of ${miss[2]} matches`
  const first = message.split('\n')[0]
  return request.status === undefined ? first : `answered ${request.status}: ${first}`
}

/** The turns of a ScriptedLLM, oldest first. @internal */
export function scriptedTurns(requests: readonly ModelRequest[], responses: ReadonlyArray<ModelResponse | undefined>): Turn[] {
  return requests.map((request, i) => ({ header: modelRequestHeader(request), request, response: responses[i], note: 'the call failed' }))
}

/** One line per refusal: `refused #1: rate_limited (429) POST /v1/chat/completions · …`. @internal */
export function renderRefusals(refusals: readonly Refusal[]): string[] {
  return refusals.map((refusal, i) => `refused #${i + 1}: ${refusal.code} (${refusal.status}) ${fakeRequestHeader(refusal.request)}`)
}

/** The fields of a MockAgent's calls the renderer reads. @internal */
export interface AgentCallRecord {
  task: string | undefined
  output?: { payload?: unknown; error?: { type: string; message: string }; text(): string }
  error?: unknown
}

/** One entry per call: the task, then what it answered. @internal */
export function renderAgentCalls(calls: readonly AgentCallRecord[]): string[] {
  return calls.flatMap((call, i) => {
    const lines = labelled(`call ${i + 1}`, call.task ?? '(no task)')
    if (call.output?.error) lines.push(`  → error ${call.output.error.type}: ${call.output.error.message}`)
    else if (call.output) lines.push(...indent(labelled('→', safeText(call.output), ' ')))
    else if ('error' in call && call.error !== undefined) lines.push(`  → threw ${call.error instanceof Error ? `${call.error.name}: ${call.error.message}` : json(call.error)}`)
    else lines.push('  → (still running)')
    return lines
  })
}

function safeText(output: { text(): string }): string {
  try {
    return output.text()
  } catch {
    return '(payload not writable as text)'
  }
}

/**
 * The last `limit` turns of a proxy's (or lane's) records and its refusals, numbered as recorded,
 * for the failure context a fixture attaches to a failing test. Unmasked: the caller masks.
 * @internal
 */
export function renderRecentConversation(requests: readonly FakeRequest[], refusals: readonly Refusal[], limit = 20): string[] {
  const first = Math.max(0, requests.length - limit)
  const lines = renderTurns(proxyTurns(requests.slice(first)), first + 1)
  if (first > 0) lines.unshift(`(${first} earlier request${first === 1 ? '' : 's'} left out)`)
  return [...lines, ...renderRefusals(refusals)]
}
