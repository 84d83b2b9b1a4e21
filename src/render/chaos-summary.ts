/**
 * The line the failure context (SPEC §14) opens with when a test's requests got faults (SPEC
 * §19): the chaos seed, each faulty request's number and what it got, and how to replay them.
 * @module
 */
import type { FakeRequest } from '../server/types.js'

/**
 * `chaos seed 42 (replay with AGENT_DOUBLES_CHAOS_SEED=42): #2 invalid_tool_args, #5 rate_limit`,
 * or `faults: #1 refusal (planned)` without chaos; `undefined` when no request got a fault.
 * @internal
 */
export function chaosSummary(requests: readonly FakeRequest[]): string | undefined {
  const faults = requests.flatMap((request, index) => (request.fault ? [{ ...request.fault, at: index + 1 }] : []))
  if (faults.length === 0) return undefined
  const list = faults.map((fault) => `#${fault.request ?? fault.at} ${fault.kind}${fault.source === 'planned' ? ' (planned)' : ''}`).join(', ')
  const seed = faults.find((fault) => fault.seed !== undefined)?.seed
  return seed === undefined ? `faults: ${list}` : `chaos seed ${seed} (replay with AGENT_DOUBLES_CHAOS_SEED=${seed}): ${list}`
}
