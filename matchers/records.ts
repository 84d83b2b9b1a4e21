/**
 * Reads what each double recorded into the shapes the matchers compare: tasks, model requests
 * and the replies given. Duck-typed over the documented fields, so the ESM and CJS copies of the
 * doubles read the same.
 * @module
 */
import type { ModelRequest, ModelResponse, ToolCallPart, ToolResultPart } from '../src/llm/types.js'
import type { FakeRequest, Refusal } from '../src/server/types.js'
import type { DoubleKind } from '../src/kinds.js'
import { lastUserText } from '../src/llm/helpers.js'

/** The fields of a `MockAgent` the matchers read. */
export interface MockAgentRecord {
  name: string
  calls: ReadonlyArray<{ task: string }>
}

/** The fields of a `ScriptedLLM` the matchers read. */
export interface ScriptedLLMRecord {
  requests: readonly ModelRequest[]
  /** Parallel to `requests`: the answer given to each call (`undefined` when it failed). */
  responses?: ReadonlyArray<ModelResponse | undefined>
  turnsRemaining?: number
  assertComplete(): void
}

/** The fields of a `FakeProxy` the matchers read. */
export interface FakeProxyRecord {
  requests: readonly FakeRequest[]
  refusals: readonly Refusal[]
  definitions: Record<string, object>
}

/** One recorded call, reduced to its task, with a short description of where it went. */
export interface TaskEntry {
  task: string
  /** e.g. `model "gpt-5", POST /v1/chat/completions, agent "researcher"`. */
  detail?: string
}

/** The task of a model request: the text of its last user message (as `lastUserText`), `''` when none. */
export function taskOf(request: ModelRequest | undefined): string {
  return request ? lastUserText(request) : ''
}

/** The tasks a double was called with, oldest first. */
export function recordedTasks(kind: DoubleKind, double: unknown): TaskEntry[] {
  if (kind === 'MockAgent') return (double as MockAgentRecord).calls.map((call) => ({ task: call.task }))
  if (kind === 'ScriptedLLM') {
    return (double as ScriptedLLMRecord).requests.map((request) => ({
      task: taskOf(request),
      detail: `model ${JSON.stringify(request.model)}`,
    }))
  }
  return (double as FakeProxyRecord).requests.map((request) => ({
    task: taskOf(request.request),
    detail: describeFakeRequest(request),
  }))
}

/** What a matcher calls one recorded item of a double: `researcher call`, `request`. */
export function callNoun(kind: DoubleKind, double: unknown): string {
  if (kind === 'MockAgent') return `${(double as MockAgentRecord).name} call`
  return 'request'
}

/** `POST /v1/chat/completions, model "gpt-5", agent "researcher"`. */
export function describeFakeRequest(request: FakeRequest): string {
  const parts = [`${request.method} ${request.path}`]
  if (request.model !== undefined) parts.push(`model ${JSON.stringify(request.model)}`)
  if (request.agent !== undefined) parts.push(`agent ${JSON.stringify(request.agent)}`)
  if (request.subagent !== undefined) parts.push(`subagent ${JSON.stringify(request.subagent)}`)
  return parts.join(', ')
}

/** The neutral requests a model double saw, oldest first. */
export function modelRequests(kind: 'ScriptedLLM' | 'FakeProxy', double: unknown): ModelRequest[] {
  if (kind === 'ScriptedLLM') return [...(double as ScriptedLLMRecord).requests]
  return (double as FakeProxyRecord).requests.map((request) => request.request)
}

/** The replies a model double gave, parallel to {@link modelRequests}. */
export function modelResponses(kind: 'ScriptedLLM' | 'FakeProxy', double: unknown): Array<ModelResponse | undefined> {
  if (kind === 'ScriptedLLM') return [...((double as ScriptedLLMRecord).responses ?? [])]
  return (double as FakeProxyRecord).requests.map((request) => request.response)
}

/** The tool calls in a reply. */
export function toolCallsOf(response: ModelResponse | undefined): ToolCallPart[] {
  return (response?.content ?? []).filter((part): part is ToolCallPart => part.type === 'tool-call')
}

/** The tool results a request carries back to the model, in message order. */
export function toolResultsOf(request: ModelRequest): ToolResultPart[] {
  return request.messages.flatMap((message) =>
    message.content.filter((part): part is ToolResultPart => part.type === 'tool-result'),
  )
}

/** The tool calls a request's history holds (assistant turns), in message order. */
export function historyToolCallsOf(request: ModelRequest): ToolCallPart[] {
  return request.messages.flatMap((message) =>
    message.content.filter((part): part is ToolCallPart => part.type === 'tool-call'),
  )
}
