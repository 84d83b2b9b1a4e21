/**
 * The script forms of a ScriptedLLM (echo, map, function, array, transcript), each compiled
 * once into a {@link TurnSource} that answers calls through a {@link Cursor}.
 * @module
 */
import type { ModelRequest } from './types.js'
import type { TurnList } from './transcript.js'
import { argumentError } from '../internal/describe.js'
import { lastUserText } from './helpers.js'
import { describeDraft, isError, parseReply, type Reply, type ReplyDraft } from './reply.js'
import { strictMismatch } from './transcript.js'
import { noteTimings } from './timings.js'

/** A script function: gets the whole request, answers a {@link Reply} (or a promise of one). */
export type ScriptFunction = (req: ModelRequest) => Reply | Promise<Reply>

/** A reply map: the first key (in insertion order) found in the last user text, ignoring case, wins. */
export type ReplyMap = Record<string, Reply>

/** Every script form `scriptedLLM()` accepts. */
export type Script = ReplyMap | ScriptFunction | Reply[]

/** Where one replay stands in a script with an end: the 0-based index of the next turn. @internal */
export interface Cursor {
  position: number
}

/** A compiled script. @internal */
export interface TurnSource {
  readonly kind: 'echo' | 'map' | 'function' | 'array' | 'transcript'
  /** How many turns the script has, when it has an end (array, transcript). */
  readonly length: number | undefined
  /**
   * Answers one call. The cursor moves synchronously, before anything is awaited, so calls
   * take turns in the order they were made.
   * @throws Error `scripted: script exhausted at turn N …` past the end; a strict mismatch.
   */
  answer(req: ModelRequest, cursor: Cursor, callNumber: number): ReplyDraft | Error | Promise<ReplyDraft | Error>
  /** One line describing turn `index` (0-based), for listing unconsumed turns. */
  describeTurn(index: number): string
}

const SCRIPT_FORMS = 'a reply map (object), a function, an array of replies, or nothing (echo)'

/**
 * Compiles a script, checking every reply it holds now rather than at the call that uses it.
 * @throws TypeError naming `ScriptedLLM` and the value when the script or one of its replies is malformed.
 * @internal
 */
export function compileScript(script: unknown): TurnSource {
  if (script === undefined) return echoSource()
  if (typeof script === 'function') return functionSource(script as ScriptFunction)
  if (Array.isArray(script)) return arraySource(script)
  if (script !== null && typeof script === 'object' && !isError(script)) return mapSource(script as ReplyMap)
  throw argumentError('ScriptedLLM', 'script', SCRIPT_FORMS, script)
}

function echoSource(): TurnSource {
  return {
    kind: 'echo',
    length: undefined,
    answer: (req) => ({ content: [{ type: 'text', text: lastUserText(req) }] }),
    describeTurn: () => 'echo',
  }
}

function mapSource(map: ReplyMap): TurnSource {
  const entries = Object.entries(map).map(([key, reply]) => {
    const draft = parseReply(reply, `reply for ${JSON.stringify(key)}`)
    return { needle: key.toLowerCase(), draft }
  })
  return {
    kind: 'map',
    length: undefined,
    answer(req) {
      const text = lastUserText(req)
      const haystack = text.toLowerCase()
      const match = entries.find((entry) => haystack.includes(entry.needle))
      return match ? match.draft : { content: [{ type: 'text', text }] }
    },
    describeTurn: () => 'map',
  }
}

function functionSource(fn: ScriptFunction): TurnSource {
  return {
    kind: 'function',
    length: undefined,
    async answer(req, _cursor, callNumber) {
      const reply = await fn(req)
      return parseReply(reply, `the reply returned by the script function at call ${callNumber}`)
    },
    describeTurn: () => 'function',
  }
}

function arraySource(replies: unknown[]): TurnSource {
  const drafts = replies.map((reply, i) => {
    if (typeof reply === 'function') {
      throw argumentError('ScriptedLLM', `turn ${i + 1} of the script`, 'a reply (functions are only allowed as the whole script)', reply)
    }
    return parseReply(reply, `turn ${i + 1} of the script`)
  })
  return {
    kind: 'array',
    length: drafts.length,
    answer(_req, cursor) {
      const index = take(cursor, drafts.length)
      return drafts[index]
    },
    describeTurn: (index) => describeDraft(drafts[index]),
  }
}

/**
 * A transcript replay. In strict mode a mismatch does not move the cursor, so a client that
 * retries the failed call meets the same turn and the same clear error again.
 * @internal
 */
export function transcriptSource(turns: TurnList, strict: boolean): TurnSource {
  const { source } = turns
  return {
    kind: 'transcript',
    length: turns.length,
    answer(req, cursor) {
      if (cursor.position >= turns.length) take(cursor, turns.length)
      const turn = turns.at(cursor.position)
      if (strict) {
        const mismatch = strictMismatch(cursor.position + 1, turn, req, source)
        if (mismatch) throw mismatch
      }
      cursor.position++
      // Kept beside the answer for a replay with replaySpeed (SPEC §19).
      if (turn.timings) noteTimings(turn.response, turn.timings)
      return turn.response
    },
    describeTurn: (index) => {
      const turn = turns.at(index)
      return `${describeDraft(turn.response)} (${source} line ${turn.line})`
    },
  }
}

/** Takes the next turn's index, or throws the exhaustion error without moving the cursor. */
function take(cursor: Cursor, length: number): number {
  if (cursor.position >= length) {
    throw new Error(
      `scripted: script exhausted at turn ${cursor.position + 1} (the script has ${length} turn${length === 1 ? '' : 's'}; no more recorded responses)`,
    )
  }
  return cursor.position++
}
