/**
 * The headers every answer to one request carries besides its own: its request id, and the
 * provider's (versions, rate limits, OpenAI's processing time). They go out with the answer's
 * own headers in one `writeHead`, as a flat list of names and values, as a server that knows its
 * answer sends them. Set one by one first (`setHeader`), then merged by `writeHead`, they cost a
 * request about 3 kB of garbage and a second pass over every header.
 * @module
 */

/** What one request's answer carries in its headers whatever the answer is. */
export interface AnswerHead {
  /** The request id, in the provider's format. */
  readonly requestId: string
  /** The provider's headers for the second the request came in, as names and values in turn: shared, never changed. */
  readonly provider: readonly string[]
  /** OpenAI's `openai-processing-ms`, when the provider reports it: updated once the request is checked. */
  processingMs?: string
}

/**
 * The headers of an answer as `writeHead` takes them (names and values in turn): `head`'s, then
 * `own`. A header `own` names replaces `head`'s (a planned rate limit's exhausted budget).
 */
export function answerHeaders(head: AnswerHead, own: Readonly<Record<string, string>>): string[] {
  const { provider } = head
  let room = provider.length + 2
  for (const _ in own) room += 2
  // Made at its full size and cut to what was filled: grown by push, the list was copied thrice.
  const list = new Array<string>(room)
  let n = 0
  for (let i = 0; i < provider.length; i += 2) {
    if (provider[i] in own) continue
    list[n++] = provider[i]
    list[n++] = provider[i + 1]
  }
  if (head.processingMs !== undefined && !('openai-processing-ms' in own)) {
    list[n++] = 'openai-processing-ms'
    list[n++] = head.processingMs
  }
  for (const name in own) {
    list[n++] = name
    list[n++] = own[name]
  }
  list.length = n
  return list
}
