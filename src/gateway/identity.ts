/**
 * Agent identity on the wire (SPEC §5.2): the `X-Viper-*` headers, read on the way in and
 * removed from what the proxy would forward.
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http'
import { argumentError } from '../internal/describe.js'
import type { Identity } from '../server/types.js'

/** A valid agent name (and each segment of a subagent path). */
export const AGENT_NAME = /^[a-z][a-z0-9_-]{0,63}$/

/** The identity headers, lower-cased as Node gives them. */
export const IDENTITY_HEADERS = Object.freeze({
  agent: 'x-viper-agent',
  definition: 'x-viper-definition',
  subagent: 'x-viper-subagent',
} as const)

/** Whether `name` is a valid agent name. */
export function isAgentName(name: unknown): name is string {
  return typeof name === 'string' && AGENT_NAME.test(name)
}

/** Whether `path` is a valid subagent path: agent names joined by `/`. */
export function isSubagentPath(path: unknown): path is string {
  return typeof path === 'string' && path.split('/').every((segment) => AGENT_NAME.test(segment))
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/**
 * Who a request says it comes from. A header sent empty still counts as sent, so the checks
 * refuse it as malformed rather than treat the request as anonymous. `headers` has its names
 * lower-cased, as Node (and the in-process transport) give them.
 */
export function readIdentity(headers: IncomingHttpHeaders): Identity {
  const identity: Identity = {}
  const agent = first(headers[IDENTITY_HEADERS.agent])
  const definition = first(headers[IDENTITY_HEADERS.definition])
  const subagent = first(headers[IDENTITY_HEADERS.subagent])
  if (agent !== undefined) identity.agent = agent.trim()
  if (definition !== undefined) identity.definitionCid = definition.trim()
  if (subagent !== undefined) identity.subagent = subagent.trim()
  return identity
}

/**
 * The headers the proxy would forward: every `x-viper-*` removed (the proxy strips them),
 * repeated values joined with `, `. `headers` has its names lower-cased; when there is nothing to
 * remove or join (most requests) it is returned as it is rather than copied.
 */
export function forwardableHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  for (const name in headers) {
    const value = headers[name]
    if (typeof value !== 'string' || name.startsWith('x-viper-')) return copyForwardable(headers)
  }
  return headers as Record<string, string>
}

function copyForwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const forwarded: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith('x-viper-')) continue
    forwarded[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return forwarded
}

/**
 * Checks an `agents` option: an array of valid names (a single string is a mistake worth a
 * clear error, since it would otherwise be read as a list of characters).
 * @throws {TypeError} `agents` is not an array of valid agent names.
 */
export function checkAgentNames(owner: string, agents: unknown): string[] | undefined {
  if (agents === undefined) return undefined
  if (typeof agents === 'string') throw argumentError(owner, 'option agents', `an array of agent names (wrap it: ['${agents}'])`, agents)
  if (!Array.isArray(agents)) throw argumentError(owner, 'option agents', 'an array of agent names', agents)
  for (const name of agents) {
    if (!isAgentName(name)) throw argumentError(owner, 'each agent name', `a string matching ${AGENT_NAME}`, name)
  }
  return [...agents]
}
