/**
 * JSONL transcripts (SPEC §4.2): one `{"request": …, "response": …}` turn per line (or
 * `{"request": …, "providerError": {"name": …}}`, a turn the provider failed, SPEC §10.2).
 * Parsed once, at load, failing at once with the file and line; compared strictly on replay.
 * @module
 */
import type { Message, ModelRequest, ModelResponse } from './types.js'
import { PREFIX, describeValue } from '../internal/describe.js'
import { deepCopy } from './helpers.js'
import { parseModelResponse, type ReplyDraft } from './reply.js'
import { timingsProblem, type TurnTimings } from './timings.js'
import { ProviderError, checkProviderError, type ProviderErrorName } from '../provider-errors.js'

/** One recorded turn: what was asked, what was answered, and where it was written. */
export interface TranscriptTurn {
  request: ModelRequest
  /** The answer, or the provider error the turn failed with. */
  response: ReplyDraft | ProviderError
  /** 1-based line of the transcript the turn was read from. */
  line: number
  /** How the turn was timed, when it was recorded with `timings: true` (SPEC §19). */
  timings?: TurnTimings
}

/** A parsed transcript. */
export interface Transcript {
  /** The file it was read from, or `'transcript text'`. */
  source: string
  turns: TranscriptTurn[]
}

// Not Buffer: `agent-doubles/in-process` loads where Node's globals do not exist.
const utf8 = new TextDecoder()
const ROLES = new Set(['user', 'assistant', 'tool'])
const PART_TYPES = new Set(['text', 'tool-call', 'tool-result', 'reasoning', 'image'])
/** The fields of a request a transcript keeps: nothing else (headers, keys) can leak into one. */
const REQUEST_KEYS = ['model', 'system', 'messages', 'tools', 'toolChoice', 'responseFormat', 'maxTokens', 'temperature', 'stream'] as const

/** Whether `pathOrText` is transcript text (it holds a newline or starts with `{`) rather than a path. */
export function isTranscriptText(pathOrText: string): boolean {
  return pathOrText.includes('\n') || pathOrText.trimStart().startsWith('{')
}

/**
 * Reads a transcript from a file path or from transcript text.
 * @throws Error when the file cannot be read; TypeError naming the file and line when it is malformed.
 */
export async function readTranscript(pathOrText: string): Promise<Transcript> {
  if (isTranscriptText(pathOrText)) return parseTranscript(pathOrText)
  return parseTranscript(utf8.decode(await readTranscriptFile(pathOrText)), pathOrText)
}

async function readTranscriptFile(path: string): Promise<Uint8Array> {
  try {
    return await (await import('node:fs/promises')).readFile(path)
  } catch (cause) {
    throw new Error(`${PREFIX} ScriptedLLM: cannot read transcript ${JSON.stringify(path)}: ${(cause as Error).message}`, { cause })
  }
}

/**
 * A transcript as replay holds it: the file's bytes and where each turn's line lies, each line
 * checked at load, a turn's objects made only when that turn is read. Parsed objects cost several
 * times their JSON (a dozen small objects even for "hi" → "ok"), so a long transcript held this
 * way costs about its file size.
 */
export interface TurnList {
  /** The file it was read from, or `'text'`. */
  readonly source: string
  readonly length: number
  /** Turn `index` (0-based), parsed anew from its line. */
  at(index: number): TranscriptTurn
}

/**
 * Reads a transcript (a path or transcript text) into a {@link TurnList}.
 * @throws as {@link readTranscript}.
 */
export async function loadTranscript(pathOrText: string): Promise<TurnList> {
  if (isTranscriptText(pathOrText)) return turnList(new TextEncoder().encode(pathOrText), 'text')
  return turnList(await readTranscriptFile(pathOrText), pathOrText)
}

const NEWLINE = 0x0a

function turnList(bytes: Uint8Array, source: string): TurnList {
  const starts: number[] = []
  const ends: number[] = []
  const lines: number[] = []
  const lineText = (start: number, end: number): string => utf8.decode(bytes.subarray(start, end)).trim()
  for (let start = 0, line = 1; start <= bytes.length; line++) {
    const newline = bytes.indexOf(NEWLINE, start)
    const end = newline === -1 ? bytes.length : newline
    const text = lineText(start, end)
    if (text !== '' && !text.startsWith('#')) {
      parseLine(text, source, line)
      starts.push(start)
      ends.push(end)
      lines.push(line)
    }
    start = end + 1
  }
  if (starts.length === 0) throw new TypeError(`${PREFIX} ScriptedLLM: transcript ${source}: no turns found`)
  const [startOf, endOf, lineOf] = [Uint32Array.from(starts), Uint32Array.from(ends), Uint32Array.from(lines)]
  return {
    source,
    length: startOf.length,
    at: (index) => parseLine(lineText(startOf[index], endOf[index]), source, lineOf[index]),
  }
}

/**
 * Parses transcript text. Blank lines and lines starting with `#` are skipped.
 * @throws TypeError naming `source` and the line on malformed JSON, a line missing `request`
 * or `response`, a turn of the wrong shape, or text with no turns.
 */
export function parseTranscript(text: string, source = 'text'): Transcript {
  const turns: TranscriptTurn[] = []
  const lines = text.split(/\r?\n/)
  lines.forEach((raw, index) => {
    const trimmed = raw.trim()
    if (trimmed === '' || trimmed.startsWith('#')) return
    turns.push(parseLine(trimmed, source, index + 1))
  })
  if (turns.length === 0) throw new TypeError(`${PREFIX} ScriptedLLM: transcript ${source}: no turns found`)
  return { source, turns }
}

function parseLine(text: string, source: string, line: number): TranscriptTurn {
  const where = `transcript ${source} line ${line}`
  const fail = (problem: string): TypeError => new TypeError(`${PREFIX} ScriptedLLM: ${where}: ${problem}`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    throw fail(`malformed JSON (${(cause as Error).message})`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fail(`a turn must be an object {"request": ..., "response": ...}, got ${describeValue(value)}`)
  }
  const { request, response, providerError, timings } = value as Record<string, unknown>
  if (request === undefined) throw fail('missing "request"')
  if (response === undefined && providerError === undefined) throw fail('missing "response"')
  const problem = requestProblem(request)
  if (problem) throw fail(`request${problem}`)
  const timingProblem = timings === undefined ? undefined : timingsProblem(timings)
  if (timingProblem) throw fail(timingProblem)
  const turnTimings = timings as TurnTimings | undefined
  if (providerError !== undefined) return new RecordedTurn(request as ModelRequest, parseProviderError(providerError, fail), line, turnTimings)
  return new RecordedTurn(request as ModelRequest, parseModelResponse(response, `${where}: response`), line, turnTimings)
}

/**
 * A turn as a transcript holds it. Only strict replay reads a turn's request, so it is kept as
 * its JSON text (a fraction of the object's heap) and parsed when read: a long transcript then
 * costs about its file size, not several times it.
 */
class RecordedTurn implements TranscriptTurn {
  readonly #request: string

  constructor(
    request: ModelRequest,
    readonly response: ReplyDraft | ProviderError,
    readonly line: number,
    readonly timings?: TurnTimings,
  ) {
    // A fresh flat string: a slice of the line would keep the whole file's text alive.
    this.#request = JSON.stringify(request)
  }

  get request(): ModelRequest {
    return JSON.parse(this.#request) as ModelRequest
  }
}

/** A `"providerError": {"name", "message"?, "retryAfterS"?}` field as the error it replays. */
function parseProviderError(value: unknown, fail: (problem: string) => TypeError): ProviderError {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fail(`"providerError" must be an object {"name": ...}, got ${describeValue(value)}`)
  }
  const { name, ...options } = value as Record<string, unknown>
  try {
    checkProviderError('providerError', name, options, false)
  } catch (error) {
    throw fail((error as Error).message.replace(`${PREFIX} `, ''))
  }
  return new ProviderError(name as ProviderErrorName, options)
}

/** What is wrong with a recorded request, as `<path> <problem>`, or `undefined`. */
function requestProblem(request: unknown): string | undefined {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return ` must be an object, got ${describeValue(request)}`
  const { system, messages } = request as Record<string, unknown>
  if (system !== undefined && typeof system !== 'string') return `.system must be a string, got ${describeValue(system)}`
  if (!Array.isArray(messages)) return `.messages must be an array, got ${describeValue(messages)}`
  for (const [i, message] of messages.entries()) {
    const { role, content } = (message ?? {}) as Partial<Message>
    if (!ROLES.has(role as string)) return `.messages[${i}].role must be 'user', 'assistant' or 'tool', got ${describeValue(role)}`
    if (!Array.isArray(content)) return `.messages[${i}].content must be an array of parts, got ${describeValue(content)}`
    for (const [j, part] of content.entries()) {
      if (!PART_TYPES.has((part as { type?: string } | null)?.type as string)) {
        return `.messages[${i}].content[${j}] must be a part with a known type, got ${describeValue(part)}`
      }
    }
  }
  return undefined
}

/** The request as a transcript keeps it: known fields only, deep-copied, `undefined`s dropped. */
export function requestSnapshot(req: ModelRequest): ModelRequest {
  const picked: Record<string, unknown> = {}
  for (const key of REQUEST_KEYS) if (req[key] !== undefined) picked[key] = req[key]
  return JSON.parse(JSON.stringify(deepCopy(picked))) as ModelRequest
}

/** One transcript line (with its newline) for a call, with its timings when they were taken. */
export function serializeTurn(request: ModelRequest, response: ModelResponse, timings?: TurnTimings): string {
  const turn = timings ? { request: requestSnapshot(request), response, timings } : { request: requestSnapshot(request), response }
  return `${JSON.stringify(turn)}\n`
}

/**
 * The strict-mode error for turn `turnNumber` when `incoming` differs from the recorded
 * request in `system` or `messages` (model and settings are not compared), else `undefined`.
 */
export function strictMismatch(turnNumber: number, turn: TranscriptTurn, incoming: ModelRequest, source: string): Error | undefined {
  const recorded = normalise({ system: turn.request.system, messages: turn.request.messages })
  const actual = normalise({ system: incoming.system, messages: incoming.messages })
  const difference = firstDifference(recorded, actual, '')
  if (!difference) return undefined
  return new Error(
    `scripted: strict mismatch on turn ${turnNumber}: ${difference.path}: expected ${render(difference.expected)}, got ${render(difference.actual)} (recorded at ${source} line ${turn.line})`,
  )
}

/** JSON's view of a value: `undefined` fields dropped, so an absent field equals an undefined one. */
function normalise(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>
}

interface Difference {
  path: string
  expected: unknown
  actual: unknown
}

/** The first path at which two JSON values differ, depth first. */
export function firstDifference(expected: unknown, actual: unknown, path: string): Difference | undefined {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const found = firstDifference(expected[i], actual[i], `${path}[${i}]`)
      if (found) return found
    }
    return undefined
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)])
    for (const key of keys) {
      const found = firstDifference(expected[key], actual[key], path ? `${path}.${key}` : key)
      if (found) return found
    }
    return undefined
  }
  return Object.is(expected, actual) ? undefined : { path: path || '(root)', expected, actual }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function render(value: unknown): string {
  if (value === undefined) return 'undefined'
  const json = JSON.stringify(value)
  return json.length > 120 ? `${json.slice(0, 117)}...` : json
}
