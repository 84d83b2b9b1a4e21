/**
 * Misbehaviour and seeded chaos on a realtime session's model turn (SPEC §19), as the HTTP hot
 * path applies them to a request: a misbehaviour planned with `proxy.misbehave()` first, then
 * chaos's decision for the turn (every turn counted, so a turn's number does not depend on what
 * earlier ones got). A misbehaviour answers in the brain's place, so the script does not move; a
 * provider error is answered as the session answers one planned with `proxy.providerError()`;
 * a transport fault lets one event through, then cuts the connection (`disconnect`), sends a
 * frame that is not JSON and cuts it (`malformed`), or sends nothing more until the client
 * cancels or leaves (`stall`). The turn's record carries the `fault`.
 * @module
 */
import type { LLM, StreamEvent } from '../../llm/types.js'
import type { FaultKind } from '../faults.js'
import type { ProxyState } from '../handle-request.js'
import type { FakeRequest } from '../types.js'
import type { Misbehaviour } from '../../llm/misbehave.js'
import { chaosAnswer } from '../chaos-answer.js'
import { misbehavingBrain } from '../misbehaving-brain.js'
import { realtimeMalformedFrame } from '../../wire/openai-realtime/misbehave.js'
import { liveMalformedFrame } from '../../wire/gemini/live-misbehave.js'

/** What a transport fault does to the session: the session itself. */
export interface FaultTarget {
  send(event: string | object): unknown
  drop(): void
}

/** The brain a turn is answered by, given the one it would have had. */
export type TurnBrain = (brain: LLM) => LLM

const asIs: TurnBrain = (brain) => brain

/**
 * Decides the turn's fault and notes it on `record`; call before `admitTurn` (which answers a
 * provider error chaos chose). Returns how to make the turn's brain.
 */
export function turnFaults(state: ProxyState, record: FakeRequest, session: FaultTarget): TurnBrain {
  // One branch when nothing is planned and chaos is off.
  if (state.pendingMisbehaviours.length === 0 && !state.chaos) return asIs
  let misbehaviour: Misbehaviour | undefined = takePending(state.pendingMisbehaviours)?.misbehaviour
  if (misbehaviour) record.fault = { kind: misbehaviour.kind, source: 'planned' }
  if (state.chaos) {
    const chosen = chaosAnswer(state.chaos, record, misbehaviour !== undefined)
    if (chosen?.type === 'misbehave') misbehaviour = chosen.misbehaviour
    else if (chosen?.type === 'provider-error') state.pendingProviderErrors.unshift({ name: chosen.name, remaining: 1 })
    else if (chosen?.type === 'transport') {
      const frame = record.dialect === 'gemini-live' ? liveMalformedFrame : realtimeMalformedFrame
      return (brain) => transportFault(brain, chosen.fault.kind, session, frame)
    }
  }
  if (!misbehaviour) return asIs
  const chosen = misbehaviour
  const callNumber = state.requests.length + 1
  return () => misbehavingBrain(chosen, callNumber)
}

/** `brain` with its stream broken after its first event. */
function transportFault(brain: LLM, kind: FaultKind, session: FaultTarget, malformedFrame: string): LLM {
  return {
    generate: (req) => brain.generate(req),
    stream: (req, options) => broken(brain.stream(req, options), kind, session, malformedFrame, options?.signal),
  }
}

async function* broken(events: AsyncIterable<StreamEvent>, kind: FaultKind, session: FaultTarget, malformedFrame: string, signal: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
  let passed = 0
  for await (const event of events) {
    if (passed === 1 || event.type === 'finish') break
    passed++
    yield event
  }
  if (kind === 'stall') {
    // Nothing more: the turn ends when the client cancels it or the session closes.
    if (signal && !signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
    return
  }
  if (kind === 'malformed') session.send(malformedFrame)
  session.drop()
}

function takePending<T extends { remaining: number }>(pending: T[]): T | undefined {
  const next = pending[0]
  if (!next) return undefined
  if (--next.remaining <= 0) pending.shift()
  return next
}
