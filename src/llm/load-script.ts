/**
 * Turns script text — a JSONL transcript, a JSON script or a JSON rules file — into a
 * ScriptedLLM. Shared by `agent-doubles serve --script/--rules` and the control API's
 * `PUT /_agent-doubles/script`, which both receive scripts as text from outside JavaScript.
 * @module
 */
import { PREFIX } from '../internal/describe.js'
import { ScriptedLLM } from './scripted-llm.js'

/** How a script's text is written. */
export type ScriptFormat = 'transcript' | 'json'

/** Thrown when rules are given but this build has no `ScriptedLLM.fromRules`. @internal */
export class RulesUnsupported extends Error {
  override name = 'RulesUnsupported'
}

type RulesLoader = (pathOrText: string) => ScriptedLLM | Promise<ScriptedLLM>

/** `ScriptedLLM.fromRules` (SPEC §14), looked up at call time: it lands in a later change. */
function rulesLoader(): RulesLoader | undefined {
  const loader = (ScriptedLLM as unknown as { fromRules?: RulesLoader }).fromRules
  return typeof loader === 'function' ? loader.bind(ScriptedLLM) : undefined
}

/** A rules file is a JSON array of `{ match, reply, times? }`; a script array holds replies. */
export function isRulesJson(json: unknown): boolean {
  return Array.isArray(json) && json.length > 0 &&
    json.every((entry) => entry !== null && typeof entry === 'object' && !Array.isArray(entry) && 'match' in entry && 'reply' in entry)
}

/**
 * A ScriptedLLM from rules text (`[{ match, reply, times? }]`).
 * @throws {RulesUnsupported} this build has no `ScriptedLLM.fromRules`.
 */
export async function llmFromRulesText(text: string, origin: string): Promise<ScriptedLLM> {
  const loader = rulesLoader()
  if (!loader) throw new RulesUnsupported(`${PREFIX} ${origin}: rules files need ScriptedLLM.fromRules, which this build of agent-doubles does not have`)
  return await loader(text)
}

/**
 * A ScriptedLLM from script text: a transcript replays turn by turn; JSON is a script (a reply
 * map or an array of replies, as `new ScriptedLLM(script)` takes) or, when it has the shape of
 * one, a rules file.
 * @throws {TypeError} naming `origin` when the text is not valid in its format.
 */
export async function llmFromScriptText(text: string, format: ScriptFormat, origin: string): Promise<ScriptedLLM> {
  if (text.trim() === '') throw new TypeError(`${PREFIX} ${origin}: the script is empty`)
  // A trailing newline keeps fromTranscript from reading one line of text as a file path.
  if (format === 'transcript') return ScriptedLLM.fromTranscript(text.endsWith('\n') ? text : `${text}\n`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new TypeError(`${PREFIX} ${origin}: the script is not valid JSON (${error instanceof Error ? error.message : String(error)})`)
  }
  if (isRulesJson(json)) return llmFromRulesText(text, origin)
  return new ScriptedLLM(json as ConstructorParameters<typeof ScriptedLLM>[0])
}

/**
 * The format of a script file: `.jsonl`/`.ndjson` is a transcript, `.json` JSON; otherwise
 * text that parses as one JSON value is JSON and anything else a transcript.
 */
export function scriptFormatOf(path: string, text: string): ScriptFormat {
  if (/\.(jsonl|ndjson)$/i.test(path)) return 'transcript'
  if (/\.json$/i.test(path)) return 'json'
  try {
    JSON.parse(text)
    return 'json'
  } catch {
    return 'transcript'
  }
}

/**
 * A ScriptedLLM from a script file (transcript or JSON script, by {@link scriptFormatOf}).
 * @throws {Error} naming the file when it cannot be read; {@link llmFromScriptText}'s errors.
 */
export async function llmFromScriptFile(path: string, origin: string): Promise<ScriptedLLM> {
  const text = await readText(path, origin)
  return llmFromScriptText(text, scriptFormatOf(path, text), `${origin} ${path}`)
}

/** A ScriptedLLM from a rules file. */
export async function llmFromRulesFile(path: string, origin: string): Promise<ScriptedLLM> {
  return llmFromRulesText(await readText(path, origin), `${origin} ${path}`)
}

async function readText(path: string, origin: string): Promise<string> {
  try {
    return await (await import('node:fs/promises')).readFile(path, 'utf8')
  } catch (error) {
    throw new Error(`${PREFIX} ${origin}: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`)
  }
}
