/**
 * `toHaveCalledToolsInOrder`: the sequence of tool calls a model double answered with, compared
 * to a list of expected calls in one of four modes.
 * @module
 */
import { argumentError, checkOptions } from '../src/internal/describe.js'
import type { ToolCallPart } from '../src/llm/types.js'
import { isAsymmetric, requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { footer, hint, ordinal, sections } from './format.js'
import { inline, showExpected } from './inline.js'
import { modelResponses, toolCallsOf } from './records.js'
import { isPlainObject, matchesSubset } from './subset.js'

const NAME = 'toHaveCalledToolsInOrder'
const MODES = ['exact', 'subsequence', 'unordered', 'superset'] as const

/** How the expected calls are compared with the actual sequence. */
export type ToolOrderMode = (typeof MODES)[number]

/** Options of `toHaveCalledToolsInOrder`. */
export interface ToolOrderOptions {
  /** @default 'subsequence' */
  mode?: ToolOrderMode
}

/** One expected call, normalised: a name (or matcher) and, optionally, an args subset. */
interface Expected {
  name: unknown
  args?: unknown
  hasArgs: boolean
}

/** What each mode demands, in words, for the failure message. */
const MEANING: Record<ToolOrderMode, string> = {
  exact: 'exactly this sequence',
  subsequence: 'these calls in this order (others may come between)',
  unordered: 'the same calls, in any order',
  superset: 'each of these calls, in any order, among others',
}

/**
 * Passes when the tool calls the double answered with, in order, match `calls` under `mode`:
 * `'exact'` (the same sequence), `'subsequence'` (the listed calls in this order, others may come
 * between; the default), `'unordered'` (the same calls in any order), `'superset'` (every listed
 * call appears, in any order, among others). A call is a name or `{ name, args? }`; `args` is an
 * object subset and may hold asymmetric matchers. A call listed twice must be made twice.
 * @example
 * expect(llm).toHaveCalledToolsInOrder(['search', { name: 'get_weather', args: { city: 'Paris' } }])
 * expect(proxy).toHaveCalledToolsInOrder(['a', 'b'], { mode: 'exact' })
 * @throws {TypeError} when `calls` is not a list of names or `{ name, args? }`, or `mode` is unknown.
 */
export function toHaveCalledToolsInOrder(
  this: PortableMatcherContext,
  received: unknown,
  calls: unknown,
  options?: unknown,
): MatcherOutcome {
  const expected = readExpected(calls)
  const mode = readMode(options)
  const kind = requireKind(NAME, received, ['ScriptedLLM', 'FakeProxy'])
  const actual = modelResponses(kind, received).flatMap(toolCallsOf)
  const matches = (want: Expected, call: ToolCallPart) =>
    this.equals(call.name, want.name, this.customTesters) && (!want.hasArgs || matchesSubset(this, call.args, want.args))
  const outcome = compare(mode, expected, actual, matches)
  return {
    pass: outcome.pass,
    message: () =>
      sections(
        hint(this, NAME, 'calls', options === undefined ? undefined : 'options'),
        `Expected (${mode}): ${this.isNot ? 'not ' : ''}${MEANING[mode]}\n  ${expected.map((want) => showCall(this, want)).join(', ') || '(no calls)'}`,
        !outcome.pass && outcome.why,
        `Received tool calls, in order:\n${actual.length ? actual.map((call, i) => `  ${ordinal(i + 1)}: ${call.name}(${inline(call.args)})`).join('\n') : '  (none)'}`,
        footer('tool calls', actual.length),
      ),
  }
}

function readExpected(calls: unknown): Expected[] {
  if (!Array.isArray(calls)) throw argumentError(NAME, 'calls', 'an array of tool names or { name, args? }', calls)
  return calls.map((call, i) => {
    if (typeof call === 'string' || isAsymmetric(call)) return { name: call, hasArgs: false }
    if (isPlainObject(call) && (typeof call.name === 'string' || isAsymmetric(call.name))) {
      const extra = Object.keys(call).find((key) => key !== 'name' && key !== 'args')
      if (extra === undefined) return { name: call.name, args: call.args, hasArgs: call.args !== undefined }
    }
    throw argumentError(NAME, `calls[${i}]`, 'a tool name (a string) or { name, args? }', call)
  })
}

function readMode(options: unknown): ToolOrderMode {
  const known = MODES.map((mode) => `'${mode}'`).join(', ')
  checkOptions(NAME, options, { mode: [`one of ${known}`, (mode) => (MODES as readonly unknown[]).includes(mode)] })
  return (options as ToolOrderOptions | undefined)?.mode ?? 'subsequence'
}

type Matches = (want: Expected, call: ToolCallPart) => boolean

interface Outcome {
  pass: boolean
  /** Why it failed, in one or two lines. */
  why?: string
}

function compare(mode: ToolOrderMode, expected: Expected[], actual: ToolCallPart[], matches: Matches): Outcome {
  switch (mode) {
    case 'exact':
      return exact(expected, actual, matches)
    case 'subsequence':
      return subsequence(expected, actual, matches)
    case 'unordered':
    case 'superset': {
      if (mode === 'unordered' && expected.length !== actual.length) {
        return { pass: false, why: `Expected ${expected.length} tool calls, received ${actual.length}.` }
      }
      const unmatched = unmatchedExpected(expected, actual, matches)
      if (unmatched.length === 0) return { pass: true }
      return { pass: false, why: `Not found${mode === 'superset' ? '' : ' among the calls made'}: ${unmatched.map((i) => `the ${ordinal(i + 1)} expected call`).join(', ')}.` }
    }
  }
}

function exact(expected: Expected[], actual: ToolCallPart[], matches: Matches): Outcome {
  const length = Math.max(expected.length, actual.length)
  for (let i = 0; i < length; i++) {
    if (i >= expected.length) return { pass: false, why: `The ${ordinal(i + 1)} tool call was not expected: ${actual.length - expected.length} more than listed.` }
    if (i >= actual.length) return { pass: false, why: `The sequence ended after ${actual.length} tool call${actual.length === 1 ? '' : 's'}; the ${ordinal(i + 1)} expected call was never made.` }
    if (!matches(expected[i], actual[i])) return { pass: false, why: `The ${ordinal(i + 1)} tool call differs from the ${ordinal(i + 1)} expected call.` }
  }
  return { pass: true }
}

/** Greedy earliest match: optimal for a subsequence, since each expected call only needs some later call. */
function subsequence(expected: Expected[], actual: ToolCallPart[], matches: Matches): Outcome {
  let next = 0
  for (let i = 0; i < expected.length; i++) {
    while (next < actual.length && !matches(expected[i], actual[next])) next++
    if (next >= actual.length) {
      const after = i === 0 ? '' : ` after the ${ordinal(i)} expected call (matched by the ${ordinal(lastMatch(expected, actual, matches, i) + 1)} tool call)`
      return { pass: false, why: `The ${ordinal(i + 1)} expected call was not found${after}.` }
    }
    next++
  }
  return { pass: true }
}

/** The index of the actual call that matched expected call `upTo - 1` in the greedy walk. */
function lastMatch(expected: Expected[], actual: ToolCallPart[], matches: Matches, upTo: number): number {
  let next = 0
  let last = -1
  for (let i = 0; i < upTo; i++) {
    while (!matches(expected[i], actual[next])) next++
    last = next++
  }
  return last
}

/**
 * The expected calls left without a distinct actual call, after the largest assignment of
 * expected to actual calls (augmenting paths: an asymmetric matcher can fit several calls, so a
 * first-fit choice could block a later, narrower expectation).
 */
function unmatchedExpected(expected: Expected[], actual: ToolCallPart[], matches: Matches): number[] {
  const owner: number[] = new Array(actual.length).fill(-1)
  const tryAssign = (want: number, seen: boolean[]): boolean => {
    for (let call = 0; call < actual.length; call++) {
      if (seen[call] || !matches(expected[want], actual[call])) continue
      seen[call] = true
      if (owner[call] === -1 || tryAssign(owner[call], seen)) {
        owner[call] = want
        return true
      }
    }
    return false
  }
  const unmatched: number[] = []
  for (let want = 0; want < expected.length; want++) {
    if (!tryAssign(want, new Array(actual.length).fill(false))) unmatched.push(want)
  }
  return unmatched
}

function showCall(ctx: PortableMatcherContext, want: Expected): string {
  const name = typeof want.name === 'string' ? want.name : showExpected(ctx, want.name)
  return want.hasArgs ? `${name}(${inline(want.args)})` : name
}
