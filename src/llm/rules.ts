/**
 * Rules of a ScriptedLLM (SPEC §14): "when a request looks like this, answer that", tried in
 * order before the script, and the JSON rules files that declare them.
 * @module
 */
import type { ModelRequest, ToolResultPart } from './types.js'
import { argumentError, checkOptions, describeValue, is, PREFIX } from '../internal/describe.js'
import { lastUserText } from './helpers.js'
import { catastrophicReason } from './regex-safety.js'
import { describeDraft, parseReply, type Reply, type ReplyDraft } from './reply.js'

/** How one field of a request is matched: a substring (ignoring case), a RegExp, or a predicate. */
export type TextMatcher = string | RegExp | ((value: string) => boolean)

/**
 * What a rule looks at. Every field given must match. `system`, `lastUser` and `lastToolResult`
 * (the last tool result in the request, as text or JSON; `''` before any) are texts; `toolOffered` matches when
 * any tool offered does; `turn` is the 1-based number of the call.
 */
export interface RuleMatch {
  model?: TextMatcher
  system?: TextMatcher
  lastUser?: TextMatcher
  toolOffered?: TextMatcher
  lastToolResult?: TextMatcher
  turn?: number | ((turn: number) => boolean)
}

/** Options of `scriptedLLM.when()`. */
export interface RuleOptions {
  /** How many calls the rule answers before it stops matching. @default unlimited */
  times?: number
}

/**
 * A compiled rule; immutable, so forks share it. The double that holds it counts its uses.
 * @internal
 */
export interface Rule {
  /** Whether the rule's match holds for this call. */
  matches(req: ModelRequest, turn: number): boolean
  /** The rule's answer to this call. */
  answer(req: ModelRequest, turn: number): ReplyDraft | Error | Promise<ReplyDraft | Error>
  /** How many calls it answers; `undefined` for no limit. */
  readonly times: number | undefined
  /** One line for messages: `{ lastUser: /weather/i } → "sunny"`. */
  readonly description: string
}

const FIELDS = ['model', 'system', 'lastUser', 'toolOffered', 'lastToolResult', 'turn'] as const
const MATCH_FORMS = `a predicate of the ModelRequest, or { ${FIELDS.map((field) => `${field}?`).join(', ')} }`
const TEXT_FORMS = 'a string (substring), a RegExp or a predicate'

/**
 * Compiles `when(match, reply, options)`.
 * @throws TypeError naming `owner` and the value when the match, the reply or an option is malformed.
 * @internal
 */
export function compileRule(owner: string, match: unknown, reply: unknown, options?: unknown, where = 'rule'): Rule {
  checkOptions(owner, options, { times: ['a positive integer', is.positiveInteger] })
  const test = compileMatch(owner, match, where)
  const answer = compileReply(owner, reply, where)
  const times = (options as RuleOptions | undefined)?.times
  const replied = typeof reply === 'function' ? 'a reply function' : describeDraft(parseReply(reply, where))
  return Object.freeze({ times, matches: test, answer, description: `${describeMatch(match)} → ${replied}` })
}

function compileMatch(owner: string, match: unknown, where: string): (req: ModelRequest, turn: number) => boolean {
  if (typeof match === 'function') return (req) => Boolean((match as (req: ModelRequest) => unknown)(req))
  if (!is.object(match) || match instanceof RegExp) throw argumentError(owner, `${where} match`, MATCH_FORMS, match)
  const fields = match as Record<string, unknown>
  const tests: Array<(req: ModelRequest, turn: number) => boolean> = []
  for (const [field, value] of Object.entries(fields)) {
    if (!(FIELDS as readonly string[]).includes(field)) {
      throw new TypeError(`${PREFIX} ${owner}: ${where} match has unknown field ${JSON.stringify(field)}; expected one of ${FIELDS.join(', ')}`)
    }
    if (value === undefined) continue
    if (field === 'turn') {
      if (typeof value === 'function') tests.push((_req, turn) => Boolean(value(turn)))
      else if (is.positiveInteger(value)) tests.push((_req, turn) => turn === value)
      else throw argumentError(owner, `${where} match.turn`, 'a 1-based call number or a predicate', value)
      continue
    }
    const text = textTest(owner, `${where} match.${field}`, value)
    const read = READERS[field as Exclude<(typeof FIELDS)[number], 'turn'>]
    tests.push((req) => read(req).some(text))
  }
  return (req, turn) => tests.every((test) => test(req, turn))
}

/** Where each text field is read from; a field may yield several candidates (tools offered). */
const READERS: Record<Exclude<(typeof FIELDS)[number], 'turn'>, (req: ModelRequest) => string[]> = {
  model: (req) => [req.model ?? ''],
  system: (req) => [req.system ?? ''],
  lastUser: (req) => [lastUserText(req)],
  toolOffered: (req) => (req.tools ?? []).map((tool) => tool.name),
  lastToolResult: (req) => {
    const results = req.messages.flatMap((message) => message.content.filter((part): part is ToolResultPart => part.type === 'tool-result'))
    const last = results.at(-1)
    // No result yet reads as '': `"/^$/"` (or a predicate) can ask for "before any tool ran".
    if (!last) return ['']
    return [typeof last.result === 'string' ? last.result : (JSON.stringify(last.result) ?? '')]
  },
}

function textTest(owner: string, where: string, value: unknown): (text: string) => boolean {
  if (typeof value === 'string') {
    const needle = value.toLowerCase()
    return (text) => text.toLowerCase().includes(needle)
  }
  if (value instanceof RegExp) {
    // A global or sticky RegExp keeps state between tests; a copy without those flags does not.
    const regexp = new RegExp(value.source, value.flags.replace(/[gy]/g, ''))
    return (text) => regexp.test(text)
  }
  if (typeof value === 'function') return (text) => Boolean(value(text))
  throw argumentError(owner, where, TEXT_FORMS, value)
}

function compileReply(owner: string, reply: unknown, where: string): Rule['answer'] {
  if (typeof reply === 'function') {
    return async (req, turn) => parseReply(await (reply as (req: ModelRequest) => unknown)(req), `the reply returned by ${where} at call ${turn}`)
  }
  const draft = parseReply(reply, `${where} reply`)
  return () => draft
}

function describeMatch(match: unknown): string {
  if (typeof match === 'function') return 'a predicate'
  const entries = Object.entries(match as Record<string, unknown>).map(([field, value]) => {
    if (value instanceof RegExp) return `${field}: ${value}`
    if (typeof value === 'function') return `${field}: a predicate`
    return `${field}: ${JSON.stringify(value)}`
  })
  return `{ ${entries.join(', ')} }`
}

/** One rule as a rules file declares it. */
export interface RuleDeclaration {
  match: RuleMatch
  reply: Reply
  times?: number
}

/** Whether `pathOrText` is rules text (it starts with `[` or holds a newline) rather than a path. @internal */
export function isRulesText(pathOrText: string): boolean {
  return pathOrText.includes('\n') || pathOrText.trimStart().startsWith('[')
}

/**
 * Reads and compiles a rules file (or rules text).
 * @throws Error when the file cannot be read; TypeError naming the file and line when it is malformed.
 * @internal
 */
export async function readRules(pathOrText: string): Promise<Rule[]> {
  if (isRulesText(pathOrText)) return parseRules(pathOrText)
  let text: string
  try {
    text = await (await import('node:fs/promises')).readFile(pathOrText, 'utf8')
  } catch (cause) {
    throw new Error(`${PREFIX} ScriptedLLM.fromRules: cannot read rules file ${JSON.stringify(pathOrText)}: ${(cause as Error).message}`, { cause })
  }
  return parseRules(text, pathOrText)
}

/**
 * Compiles rules text: a JSON array of `{ match, reply, times? }`; in `match`, a string of the
 * form `"/source/flags"` is a RegExp.
 * @throws TypeError naming `source` and the line of the problem.
 * @internal
 */
export function parseRules(text: string, source = 'text'): Rule[] {
  const owner = 'ScriptedLLM.fromRules'
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    const message = (cause as Error).message
    throw new TypeError(`${PREFIX} ${owner}: rules ${source} line ${lineOfJsonError(text, message)}: malformed JSON (${message})`)
  }
  if (!Array.isArray(value)) {
    throw new TypeError(`${PREFIX} ${owner}: rules ${source} line 1: expected a JSON array of { match, reply, times? }, got ${describeValue(value)}`)
  }
  if (value.length === 0) throw new TypeError(`${PREFIX} ${owner}: rules ${source}: no rules found`)
  const lines = elementLines(text)
  return value.map((entry, index) => {
    const where = `rules ${source} line ${lines[index] ?? 1} (rule ${index + 1})`
    try {
      if (!is.object(entry)) throw new TypeError(`a rule must be { match, reply, times? }, got ${describeValue(entry)}`)
      const { match, reply, times, ...rest } = entry as Record<string, unknown>
      const extra = Object.keys(rest)[0]
      if (extra !== undefined) throw new TypeError(`unknown key ${JSON.stringify(extra)}; a rule has match, reply and times`)
      if (match === undefined) throw new TypeError('the rule has no "match"')
      if (reply === undefined) throw new TypeError('the rule has no "reply"')
      return compileRule(owner, revive(match), reply, times === undefined ? undefined : { times }, 'rule')
    } catch (error) {
      if (!(error instanceof TypeError)) throw error
      const problem = error.message.replace(/^\[agent-doubles\] [^:]+: /, '')
      throw new TypeError(`${PREFIX} ${owner}: ${where}: ${problem}`)
    }
  })
}

/** `"/weather/i"` → `/weather/i` in the fields of a match; other values as they are. */
function revive(match: unknown): unknown {
  if (!is.object(match)) return match
  const revived: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(match as Record<string, unknown>)) {
    const literal = typeof value === 'string' ? /^\/(.+)\/([a-z]*)$/s.exec(value) : null
    if (!literal) {
      revived[field] = value
      continue
    }
    try {
      revived[field] = new RegExp(literal[1], literal[2])
    } catch (cause) {
      throw new TypeError(`match.${field} ${JSON.stringify(value)} is not a valid regular expression (${(cause as Error).message})`)
    }
    // A rules file may come from anywhere (the control API takes one): a pattern that can
    // backtrack exponentially would stall the proxy on a short input, so it is refused here.
    const catastrophic = catastrophicReason(literal[1])
    if (catastrophic) throw new TypeError(`match.${field} ${JSON.stringify(value)} may backtrack exponentially: ${catastrophic}; write it without the nesting`)
  }
  return revived
}

/** The 1-based line a `JSON.parse` error points at (Node 20 gives a position, newer Nodes a line). */
function lineOfJsonError(text: string, message: string): number {
  const line = /line (\d+)/.exec(message)
  if (line) return Number(line[1])
  const position = /position (\d+)/.exec(message)
  if (position) return text.slice(0, Number(position[1])).split('\n').length
  return text.split('\n').length
}

/** The 1-based line on which each element of the top-level array starts. */
function elementLines(text: string): number[] {
  const lines: number[] = []
  let line = 1
  let depth = 0
  let inString = false
  let expectValue = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '\n') line++
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
      continue
    }
    if (/\s/.test(char)) continue
    if (depth === 1 && expectValue) {
      lines.push(line)
      expectValue = false
    }
    if (char === '"') inString = true
    else if (char === '[' || char === '{') {
      depth++
      if (depth === 1) expectValue = true
    } else if (char === ']' || char === '}') depth--
    else if (char === ',' && depth === 1) expectValue = true
  }
  return lines
}

/** An error for a call no rule answered (a rules-only double has no script to fall back on). @internal */
export function noRuleMatched(turn: number, req: ModelRequest, rules: readonly Rule[], uses: readonly number[]): Error {
  const listed = rules.map((rule, i) => `  ${i + 1}. ${describeRule(rule, uses[i] ?? 0)}`).join('\n')
  return new Error(
    `${PREFIX} ScriptedLLM: no rule matched call ${turn} (model ${JSON.stringify(req.model)}, last user text ${describeValue(lastUserText(req))}); rules:\n${listed}`,
  )
}


/** A rule and how far it is used up: `{ lastUser: "hi" } → "hello" (1 of 2 used)`. @internal */
export function describeRule(rule: Rule, used: number): string {
  return `${rule.description}${rule.times === undefined ? '' : ` (${used} of ${rule.times} used)`}`
}
