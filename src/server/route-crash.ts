/**
 * A bug of the fake on a model route (SPEC §24): answered in that route's provider shape — the
 * AWS SDK reads Bedrock's `x-amzn-errortype`, `@google/genai` Gemini's `error.status` — and
 * recorded, rather than a 500 in OpenAI's shape that only the server's last-resort handler
 * knows how to write. The route's handler leaves its answer here as it starts; the server's
 * catch-all (`answerCrash`) uses it when the handler rejects.
 * @module
 */

const ROUTE_CRASH = Symbol.for('agent-doubles.routeCrash')

/** Answers a crash of the handler in the route's own shape; `false` when it cannot (already answering). */
export type RouteCrashAnswer = (error: unknown) => boolean

/** Notes how a crash of the handler serving `res` is answered. */
export function onRouteCrash(res: object, answer: RouteCrashAnswer): void {
  ;(res as { [ROUTE_CRASH]?: RouteCrashAnswer })[ROUTE_CRASH] = answer
}

/** Answers a crash through the route's own answer, if one was noted; whether it did. */
export function answerRouteCrash(res: object, error: unknown): boolean {
  const answer = (res as { [ROUTE_CRASH]?: RouteCrashAnswer })[ROUTE_CRASH]
  return answer !== undefined && answer(error)
}
