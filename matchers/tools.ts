/**
 * Matchers on tool use through a model double: the tool calls it answered with, the tool
 * results carried back to it, and whether a script was used up.
 * @module
 */
import { argumentError } from '../src/internal/describe.js'
import type { ToolCallPart, ToolResultPart } from '../src/llm/types.js'
import { isAsymmetric, requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { footer, hint, marker, ordinal, receivedList, sections } from './format.js'
import { inline, showExpected, showReceived } from './inline.js'
import {
  historyToolCallsOf,
  modelRequests,
  modelResponses,
  toolCallsOf,
  toolResultsOf,
  type ScriptedLLMRecord,
} from './records.js'
import { matchesSubset } from './subset.js'

const MODEL_DOUBLES = ['ScriptedLLM', 'FakeProxy'] as const

function checkToolName(matcherName: string, name: unknown): void {
  if (typeof name !== 'string' && !isAsymmetric(name)) throw argumentError(matcherName, 'name', 'a tool name (a string)', name)
}

function renderCalls(ctx: PortableMatcherContext, calls: ToolCallPart[]): string {
  if (calls.length === 0) return 'no tool call'
  return calls.map((call) => `${call.name}(${inline(call.args)})`).join(', ')
}

/**
 * Passes when some reply the double gave asked for tool `name` (with `args` as an object subset,
 * when given).
 * @example
 * expect(llm).toHaveRequestedTool('get_weather', { city: 'Paris' })
 */
export function toHaveRequestedTool(
  this: PortableMatcherContext,
  received: unknown,
  name: unknown,
  args?: unknown,
): MatcherOutcome {
  const matcherName = 'toHaveRequestedTool'
  checkToolName(matcherName, name)
  const kind = requireKind(matcherName, received, MODEL_DOUBLES)
  const responses = modelResponses(kind, received)
  const matches = (call: ToolCallPart) =>
    this.equals(call.name, name, this.customTesters) && (args === undefined || matchesSubset(this, call.args, args))
  const pass = responses.some((response) => toolCallsOf(response).some(matches))
  return {
    pass,
    message: () =>
      sections(
        hint(this, matcherName, 'name', args === undefined ? undefined : 'args'),
        `Expected: ${this.isNot ? 'no' : 'a'} reply calling ${showExpected(this, name)}${args === undefined ? '' : ` with ${showExpected(this, args)}`}`,
        receivedList(
          'Received replies',
          responses,
          (index) => `${ordinal(index + 1)} reply`,
          (response) => (response === undefined ? '(no reply: the call failed)' : renderCalls(this, toolCallsOf(response))),
        ),
        footer('replies', responses.length),
      ),
  }
}

/** A tool result as the model saw it, with the tool's name resolved. */
interface ResolvedResult {
  name: string | undefined
  part: ToolResultPart
  requestIndex: number
}

/**
 * Passes when some request carried the result of tool `name` back to the model (matching
 * `result` when given: an object subset for objects, equality otherwise; a JSON string result
 * is parsed before an object comparison). The name comes from the result itself or, as most
 * wire formats leave it out, from the earlier tool call with the same id.
 * @example
 * expect(proxy).toHaveReceivedToolResult('get_weather', { temperature: 21 })
 */
export function toHaveReceivedToolResult(
  this: PortableMatcherContext,
  received: unknown,
  name: unknown,
  result?: unknown,
): MatcherOutcome {
  const matcherName = 'toHaveReceivedToolResult'
  checkToolName(matcherName, name)
  const kind = requireKind(matcherName, received, MODEL_DOUBLES)
  const requests = modelRequests(kind, received)
  const namesById = new Map<string, string>()
  for (const response of modelResponses(kind, received)) for (const call of toolCallsOf(response)) namesById.set(call.id, call.name)
  for (const request of requests) for (const call of historyToolCallsOf(request)) namesById.set(call.id, call.name)
  const results: ResolvedResult[] = requests.flatMap((request, requestIndex) =>
    toolResultsOf(request).map((part) => ({ name: part.name ?? namesById.get(part.id), part, requestIndex })),
  )
  const matches = (entry: ResolvedResult) =>
    this.equals(entry.name, name, this.customTesters) &&
    (result === undefined || matchesResult(this, entry.part.result, result))
  const pass = results.some(matches)
  return {
    pass,
    message: () =>
      sections(
        hint(this, matcherName, 'name', result === undefined ? undefined : 'result'),
        `Expected: ${this.isNot ? 'no' : 'a'} result of ${showExpected(this, name)}${result === undefined ? '' : ` matching ${showExpected(this, result)}`} carried back to the model`,
        receivedList(
          'Received tool results',
          results,
          (index) => `${marker((i) => matches(results[i]), index)}${ordinal(index + 1)} result`,
          (entry) =>
            `${entry.name ?? `(unknown tool, id ${JSON.stringify(entry.part.id)})`} → ${showReceived(this, entry.part.result)} (in the ${ordinal(entry.requestIndex + 1)} request)`,
        ),
        footer('requests', requests.length),
      ),
  }
}

function matchesResult(ctx: PortableMatcherContext, actual: unknown, expected: unknown): boolean {
  if (matchesSubset(ctx, actual, expected)) return true
  // OpenAI and Anthropic carry results as text: compare the parsed JSON too, unless the test
  // expects a string itself (then the text was already compared above).
  if (typeof actual === 'string' && typeof expected !== 'string') {
    try {
      return matchesSubset(ctx, JSON.parse(actual), expected)
    } catch {
      return false
    }
  }
  return false
}

/**
 * Passes when a ScriptedLLM used every scripted turn (its `assertComplete()` does not throw).
 * @example
 * expect(llm).toHaveConsumedAllTurns()
 */
export function toHaveConsumedAllTurns(this: PortableMatcherContext, received: unknown): MatcherOutcome {
  const matcherName = 'toHaveConsumedAllTurns'
  requireKind(matcherName, received, ['ScriptedLLM'])
  const llm = received as ScriptedLLMRecord
  let problem: string | undefined
  try {
    llm.assertComplete()
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error)
  }
  const pass = problem === undefined
  return {
    pass,
    message: () =>
      sections(
        hint(this, matcherName, ''),
        pass
          ? `Expected some scripted turns to remain, but every turn was used.`
          : `Expected every scripted turn to be used.\n${problem}`,
        llm.turnsRemaining !== undefined && `Turns remaining: ${llm.turnsRemaining}`,
        footer('requests', llm.requests.length),
      ),
  }
}
