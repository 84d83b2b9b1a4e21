/**
 * The proxy's checks on a model request, in the order of SPEC §5.3 (1–5; a pending
 * `refuse()`, check 6, is the pipeline's). The first check that fails decides the refusal.
 * @module
 */
import type { RefusalCode } from './refusal-codes.js'
import type { AgentBook } from './agent-book.js'
import { AGENT_NAME, isSubagentPath } from './identity.js'
import type { Identity, ProxyFeature } from '../server/types.js'

/** What the checks look at. */
export interface CheckInput {
  identity: Identity
  book: AgentBook
  /** Refuse requests that name no agent. */
  strict: boolean
  /** What the proxy reports from `/viper/v1/info`. */
  features: ReadonlySet<ProxyFeature>
  /** The features the request's dialect needs (e.g. `responses_api`). */
  needs: readonly ProxyFeature[]
}

/** A failed check: the code, and a message and hint that say what to fix. */
export interface CheckFailure {
  code: RefusalCode
  message: string
  hint?: string
}

const AGENT_HINT = 'send X-Viper-Agent: <name>, e.g. through new ProxyClient(proxy.url).agent(name, definition)'

/** The first failed check of SPEC §5.3 (1–5), with a message naming what failed; `undefined` when all pass. */
export function checkModelRequestDetail(input: CheckInput): CheckFailure | undefined {
  const { identity, book } = input
  const { agent, definitionCid, subagent } = identity

  // 1. Only an agent gives a definition or subagent meaning, so naming either without one is
  //    refused like a strict proxy's anonymous request, strict or not.
  if (agent === undefined && (input.strict || definitionCid !== undefined || subagent !== undefined)) {
    const named = definitionCid !== undefined ? 'X-Viper-Definition' : subagent !== undefined ? 'X-Viper-Subagent' : undefined
    return {
      code: 'agent_required',
      message: named ? `the request sends ${named} but names no agent` : 'this proxy is strict and the request names no agent',
      hint: AGENT_HINT,
    }
  }
  if (agent === undefined) return featureCheck(input, [])

  // 2.
  if (!AGENT_NAME.test(agent)) {
    return { code: 'invalid_agent_name', message: `agent name ${JSON.stringify(agent)} is malformed`, hint: `agent names match ${AGENT_NAME}` }
  }
  if (subagent !== undefined && !isSubagentPath(subagent)) {
    return {
      code: 'invalid_agent_name',
      message: `subagent path ${JSON.stringify(subagent)} is malformed`,
      hint: `a subagent path is agent names joined by "/", each matching ${AGENT_NAME}`,
    }
  }
  // 3.
  if (!book.isEnrolled(agent)) {
    return { code: 'agent_unknown', message: `agent ${JSON.stringify(agent)} is not enrolled`, hint: 'enroll it: new FakeProxy({ agents: [...] })' }
  }
  // 4.
  if (definitionCid !== undefined && definitionCid !== book.latestCid(agent)) {
    return {
      code: 'definition_unknown',
      message: `definition ${JSON.stringify(definitionCid)} is not agent ${JSON.stringify(agent)}'s latest registration`,
      hint: `register it again (PUT /viper/v1/agents/${agent}/definition) and resend`,
    }
  }
  // 5.
  const identityNeeds: ProxyFeature[] = []
  if (definitionCid !== undefined) identityNeeds.push('definitions')
  if (subagent !== undefined) identityNeeds.push('subagents')
  return featureCheck(input, identityNeeds)
}

function featureCheck(input: CheckInput, identityNeeds: readonly ProxyFeature[]): CheckFailure | undefined {
  const missing = missingFeature(input, identityNeeds)
  if (missing === undefined) return undefined
  return {
    code: 'feature_unsupported',
    message: `the request needs the "${missing}" feature, which this proxy does not report`,
    hint: 'GET /viper/v1/info lists what the proxy supports',
  }
}

/**
 * The first of `identityNeeds`, then of the dialect's needs, that the proxy does not report: a
 * loop rather than a joined list and `find()`, as every model request is checked.
 */
function missingFeature(input: CheckInput, identityNeeds: readonly ProxyFeature[]): ProxyFeature | undefined {
  const { features, needs } = input
  for (let i = 0; i < identityNeeds.length; i++) if (!features.has(identityNeeds[i])) return identityNeeds[i]
  for (let i = 0; i < needs.length; i++) if (!features.has(needs[i])) return needs[i]
  return undefined
}

/**
 * The refusal code of the first failed check of SPEC §5.3 (1–5), or `undefined` when the
 * request passes them.
 */
export function checkModelRequest(input: CheckInput): RefusalCode | undefined {
  return checkModelRequestDetail(input)?.code
}
