/**
 * How a failing brain is answered (SPEC §17): a script that ran out, a script function or rule
 * that threw, an `Error` reply, a bad `embed` result. Resending cannot help, so the answer is a
 * 400 in the dialect's error shape — a status no SDK or CLI retries (Gemini CLI retries every
 * 5xx for tens of seconds whatever `x-should-retry` says) — with `x-should-retry: false`, and a
 * message naming the brain and the turn it failed on.
 * @module
 */
import { kindOf } from '../kinds.js'
import { LLM_ERROR_PREFIX } from '../wire/dialect.js'
import type { FakeRequest } from './types.js'
import type { LLM } from '../llm/types.js'

/** The status of a failing brain's answer. */
export const BRAIN_FAILURE_STATUS = 400

/**
 * Headers of that answer: the OpenAI and Anthropic SDKs read `x-should-retry: false` and give
 * up; `retry-after-ms` makes a client that retries anyway (the AI SDK) do so at once.
 */
export const BRAIN_FAILURE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'x-should-retry': 'false', 'retry-after-ms': '1' })

/**
 * `[agent-doubles] FakeProxy: the LLM (ScriptedLLM, turn 3) threw: Error: scripted: script exhausted at turn 3 …`
 * — the turn is the brain's call count once it took the request, when it keeps one.
 */
export function brainFailureMessage(brain: LLM, error: unknown): string {
  const kind = kindOf(brain) ?? 'a custom LLM'
  const calls = (brain as { callCount?: unknown }).callCount
  const turn = typeof calls === 'number' && calls > 0 ? `, turn ${calls}` : ''
  return `${LLM_ERROR_PREFIX} (${kind}${turn}) threw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`
}

/**
 * What a request's record holds when the brain failed to answer it (a script exhausted, a
 * replay miss, a throwing function): the status and the error, so the conversation rendering
 * can say "script exhausted at turn N" or "replay miss" instead of "no reply recorded". Its type,
 * `brain_error`, tells it apart from a request validation rejected.
 */
export function brainFailure(error: unknown): Pick<FakeRequest, 'status' | 'error'> {
  const message = error instanceof Error ? error.message : String(error)
  return { status: BRAIN_FAILURE_STATUS, error: { type: 'brain_error', code: null, param: null, message } }
}
