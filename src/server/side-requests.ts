/**
 * Side requests (SPEC §17): requests an agent runtime makes on its own — a warm-up, title or
 * quota probe, a token count, a model list, a routing call — that the test's script must not
 * see. Each is recognised from its shape by one rule below (one per runtime, documented in
 * docs/guide/*), answered from a built-in default (unless a rule of the test's ScriptedLLM
 * matches it explicitly), recorded with `side: true`, and left out by the matchers unless they
 * are given `{ includeSide: true }`. Planned refusals, provider errors and faults wait for the
 * next request that is not a side request.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { LLM, ModelRequest, ModelResponse } from '../llm/types.js'
import type { Dialect } from './types.js'
import { completeReply } from '../llm/reply.js'
import { eachEvent } from '../llm/stream-events.js'
import { allDialects } from '../wire/dialects.js'

/** One kind of side request: which runtime makes it, and what answers it. */
export interface SideRule {
  /** `'any client'`, `'Claude Code'`, `'Gemini CLI'`… */
  readonly runtime: string
  /** What the request is for, as the docs name it. */
  readonly name: string
  /** The built-in answer; absent for the token counts and model lists, which the dialect answers itself. */
  readonly answer?: (request: ModelRequest) => ModelResponse
}

/** What a rule reads of a request: its dialect, its JSON body and its headers. */
interface SideInput {
  readonly dialect: Dialect
  readonly json: Record<string, unknown>
  readonly headers: IncomingHttpHeaders
}

/** Dialects that are never a conversation turn: token counts and model lists (each dialect says so itself). */
const NOT_TURNS: ReadonlySet<Dialect> = new Set(allDialects.filter((dialect) => dialect.modelTraffic === false).map((dialect) => dialect.id))

const countOrList: SideRule = { runtime: 'any client', name: 'token count or model list' }

/** A text answer, as the brain's would be, with usage estimated. */
function text(reply: string): (request: ModelRequest) => ModelResponse {
  return (request) => completeReply({ content: [{ type: 'text', text: reply }] }, { req: request, callNumber: 1, usage: 'estimate', model: request.model || 'mock' })
}

/** Claude Code (user agent `claude-cli/…`): a quota probe or warm-up (`max_tokens: 1`, no tools). */
const claudeProbe: SideRule = { runtime: 'Claude Code', name: 'quota probe or warm-up (max_tokens: 1)', answer: text('OK') }

/** Claude Code: a title or topic request (no tools, a system prompt asking for a title or topic). */
const claudeTitle: SideRule = { runtime: 'Claude Code', name: 'title or topic request', answer: text('{"isNewTopic":false,"title":"agent-doubles session"}') }

/** The system prompts of Claude Code's title and topic requests. */
const TITLE_PROMPT = /(sentence-case title|concise title|conversation topic|new conversation topic|title for (this|the) conversation|summarize this (coding )?conversation in)/i

/** Gemini CLI's model-routing answers, by the field its JSON schema asks for. */
const ROUTING_ANSWERS: Readonly<Record<string, Record<string, unknown>>> = {
  complexity_score: { complexity_reasoning: 'agent-doubles: a side request, answered by default', complexity_score: 1 },
  model_choice: { reasoning: 'agent-doubles: a side request, answered by default', model_choice: 'flash' },
  next_speaker: { reasoning: 'agent-doubles: a side request, answered by default', next_speaker: 'user' },
}

function geminiRule(field: string): SideRule {
  const answer = JSON.stringify(ROUTING_ANSWERS[field])
  const name = field === 'next_speaker' ? 'next-speaker check (JSON schema with next_speaker)' : `model routing (JSON schema with ${field})`
  return { runtime: 'Gemini CLI', name, answer: text(answer) }
}

const geminiRules = Object.fromEntries(Object.keys(ROUTING_ANSWERS).map((field) => [field, geminiRule(field)]))

/**
 * The side rule `request` falls under, or `undefined` for a request of the conversation.
 * - any client: a token count (`count_tokens`, `:countTokens`) or a model list.
 * - Claude Code (`user-agent: claude-cli/…`) on Anthropic Messages, without tools: `max_tokens: 1`
 *   (quota probe, warm-up), or a system prompt asking for a title or topic.
 * - Gemini CLI on `generateContent`: a JSON-schema answer whose
 *   properties hold `complexity_score` or `model_choice` (model routing, on a lite model) or
 *   `next_speaker` (the next-speaker check).
 */
export function sideRuleFor(input: SideInput): SideRule | undefined {
  const { dialect, json, headers } = input
  if (NOT_TURNS.has(dialect)) return countOrList
  const agent = String(headers['user-agent'] ?? '')
  if (dialect === 'anthropic-messages' && agent.startsWith('claude-cli/') && !hasTools(json.tools)) {
    if (json.max_tokens === 1) return claudeProbe
    if (TITLE_PROMPT.test(systemText(json.system))) return claudeTitle
    return undefined
  }
  // Gemini CLI's user agent is not always its own (the SDK's may replace it): the schema decides.
  if (dialect === 'gemini-generate') {
    const config = record(json.generationConfig ?? json.generation_config)
    const schema = record(config.responseJsonSchema ?? config.responseSchema ?? config.response_schema)
    const properties = record(schema.properties)
    const field = Object.keys(ROUTING_ANSWERS).find((name) => name in properties)
    return field ? geminiRules[field] : undefined
  }
  return undefined
}

/**
 * The brain that answers a side request: the test's own when one of its rules matches the
 * request explicitly (`ScriptedLLM.when`), else one answering the rule's default.
 */
export function sideBrain(rule: SideRule, brain: LLM, request: ModelRequest): LLM {
  if (!rule.answer) return brain
  if ((brain as { hasRuleFor?: (req: ModelRequest) => boolean }).hasRuleFor?.(request)) return brain
  const answer = rule.answer
  return {
    generate: async (req) => answer(req),
    stream: async function* (req) {
      yield* eachEvent(answer(req), 'words')
    },
  }
}

function hasTools(tools: unknown): boolean {
  return Array.isArray(tools) && tools.length > 0
}

function systemText(system: unknown): string {
  if (typeof system === 'string') return system
  if (!Array.isArray(system)) return ''
  return system.map((block) => (typeof (block as { text?: unknown })?.text === 'string' ? (block as { text: string }).text : '')).join('\n')
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}
