/**
 * The brain that stands in for a proxy's own for one request that must misbehave
 * (`proxy.misbehave()`, or seeded chaos): it answers with the misbehaviour, made from the
 * request, so the proxy's brain is not asked and its script does not move — a client's retry
 * meets the turn this request would have used.
 * @module
 */
import type { LLM, ModelResponse, StreamEvent } from '../llm/types.js'
import { completeReply } from '../llm/reply.js'
import { eachEvent } from '../llm/stream-events.js'
import type { Misbehaviour } from '../llm/misbehave.js'

/** An LLM answering every call with `misbehaviour`; `callNumber` numbers the call (for its ids). */
export function misbehavingBrain(misbehaviour: Misbehaviour, callNumber: number): LLM {
  const answer = (req: Parameters<LLM['generate']>[0]): ModelResponse =>
    completeReply({ content: [], misbehaviour }, { req, callNumber, usage: 'estimate', model: typeof req.model === 'string' && req.model !== '' ? req.model : 'mock' })
  return {
    generate: async (req) => answer(req),
    stream: (req, options) => events(answer(req), options?.onAccepted),
  }
}

async function* events(response: ModelResponse, onAccepted: (() => void) | undefined): AsyncGenerator<StreamEvent> {
  onAccepted?.()
  yield* eachEvent(response, 'words')
}
