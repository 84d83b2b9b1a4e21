/**
 * What a request's record holds when the brain failed to answer it (a script exhausted, a
 * replay miss, a throwing function): the status and the error, so the conversation rendering
 * can say "script exhausted at turn N" or "replay miss" instead of "no reply recorded".
 * @module
 */
import type { FakeRequest } from './types.js'

/** The status the proxy answers a failing brain with today. */
const BRAIN_FAILURE_STATUS = 500

/** The `status` and `error` to record for a brain that threw `error`. */
export function brainFailure(error: unknown): Pick<FakeRequest, 'status' | 'error'> {
  const message = error instanceof Error ? error.message : String(error)
  return { status: BRAIN_FAILURE_STATUS, error: { type: 'brain_error', code: null, param: null, message } }
}
