/**
 * Misbehaviour and seeded chaos on a realtime session's model turn (SPEC §19), as the HTTP hot
 * path applies them to a request: a misbehaviour planned with `proxy.misbehave()` first, then
 * chaos's decision for the turn (every turn counted, so a turn's number does not depend on what
 * earlier ones got). A misbehaviour answers in the brain's place, so the script does not move; a
 * provider error is answered as the session answers one planned with `proxy.providerError()`;
 * a transport fault — planned with `proxy.fail()` or chosen by chaos — lets `afterChunks` of the
 * brain's events through (chaos: one), then cuts the connection (`disconnect`), sends a frame
 * that is not JSON and cuts it (`malformed`), or sends nothing more until the client cancels or
 * leaves (`stall`). The turn's record carries a misbehaviour's or chaos's `fault`, as over HTTP.
 * @module
 */
import type { LLM, StreamEvent } from '../../llm/types.js'
import type { Fault } from '../faults.js'
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
  // As over HTTP: a fault planned with `proxy.fail()` first, then misbehaviour, then chaos.
  let transport: Fault | undefined = state.faults.take()
  // One branch when nothing is planned and chaos is off.
  if (!transport && state.pendingMisbehaviours.length === 0 && !state.chaos) return asIs
  let misbehaviour: Misbehaviour | undefined = takePending(state.pendingMisbehaviours)?.misbehaviour
  if (misbehaviour) record.fault = { kind: misbehaviour.kind, source: 'planned' }
  if (state.chaos) {
    const chosen = chaosAnswer(state.chaos, record, transport !== undefined || misbehaviour !== undefined)
    if (chosen?.type === 'misbehave') misbehaviour = chosen.misbehaviour
    else if (chosen?.type === 'provider-error') state.pendingProviderErrors.unshift({ name: chosen.name, remaining: 1 })
    else if (chosen?.type === 'transport') transport = chosen.fault
  }
  const chosen = misbehaviour
  const callNumber = state.requests.length + 1
  const answering: TurnBrain = chosen ? () => misbehavingBrain(chosen, callNumber) : asIs
  if (!transport) return answering
  const fault = transport
  const frame = record.dialect === 'gemini-live' ? liveMalformedFrame : realtimeMalformedFrame
  return (brain) => transportFault(answering(brain), fault, session, frame)
}

/** `brain` with its stream broken after `fault.afterChunks` events. */
function transportFault(brain: LLM, fault: Fault, session: FaultTarget, malformedFrame: string): LLM {
  return {
    generate: (req) => brain.generate(req),
    // Cut before any event: the brain is not asked, so the next turn meets the answer this one would have had.
    stream: (req, options) => broken(fault.afterChunks === 0 ? none() : brain.stream(req, options), fault, session, malformedFrame, options?.signal),
  }
}

async function* none(): AsyncGenerator<StreamEvent> {}

async function* broken(events: AsyncIterable<StreamEvent>, fault: Fault, session: FaultTarget, malformedFrame: string, signal: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
  let passed = 0
  if (fault.afterChunks > 0) {
    for await (const event of events) {
      if (event.type === 'finish') break
      yield event
      if (++passed === fault.afterChunks) break
    }
  }
  if (fault.kind === 'stall') {
    // Nothing more: the turn ends when the client cancels it or the session closes.
    if (signal && !signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
    return
  }
  if (fault.kind === 'malformed') session.send(malformedFrame)
  session.drop()
}

function takePending<T extends { remaining: number }>(pending: T[]): T | undefined {
  const next = pending[0]
  if (!next) return undefined
  if (--next.remaining <= 0) pending.shift()
  return next
}
