/**
 * Remembers the local API answer behind each error `ProxyClient` throws, so an agent binding
 * can hand a failed registration to the model client as an HTTP answer rather than a
 * connection error (which the SDKs would retry).
 * @module
 */

/** A failed local API answer. */
export interface FailedAnswer {
  status: number
  headers: Record<string, string>
  text: string
}

const failedAnswers = new WeakMap<Error, FailedAnswer>()

/** Records that `error` was made from `answer`. @internal */
export function rememberFailedAnswer(error: Error, answer: FailedAnswer): Error {
  failedAnswers.set(error, answer)
  return error
}

/** The local API answer an error was made from, if any. @internal */
export function failedAnswerOf(err: unknown): FailedAnswer | undefined {
  return err instanceof Error ? failedAnswers.get(err) : undefined
}
