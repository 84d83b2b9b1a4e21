/**
 * What the hot path does with seeded chaos for one model request: decide (counting the
 * request), note the fault on its record, and say how to answer.
 * @module
 */
import { misbehave, type Misbehaviour } from '../llm/misbehave.js'
import type { ProviderErrorName } from '../provider-errors.js'
import type { Fault } from './faults.js'
import type { FakeRequest } from './types.js'
import { chaosAction, type ChaosState } from './chaos.js'

export type { ChaosState } from './chaos.js'

/** How chaos answers one request. @internal */
export type ChaosAnswer =
  | { type: 'misbehave'; misbehaviour: Misbehaviour }
  | { type: 'provider-error'; name: ProviderErrorName }
  | { type: 'transport'; fault: Fault }

/**
 * Decides for `record`'s request. Every model request is counted, so a request's number (a key
 * of the decision) does not depend on what earlier ones got; one that already carries a planned
 * fault keeps it.
 * @internal
 */
export function chaosAnswer(chaos: ChaosState, record: FakeRequest, planned: boolean): ChaosAnswer | undefined {
  const fault = chaos.next()
  if (!fault || planned) return undefined
  record.fault = fault
  const action = chaosAction(fault.kind)
  if (action.type === 'misbehave') return { type: 'misbehave', misbehaviour: misbehave(action.kind) }
  if (action.type === 'provider-error') return action
  // Cut after the first event (or half-way through a JSON body): the client has begun to read.
  return { type: 'transport', fault: { kind: action.kind, afterChunks: 1 } }
}
