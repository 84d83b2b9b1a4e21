/**
 * The proxy's local agent API, `/viper/v1` (SPEC §5.5): info, skill and memory files, and
 * agent definitions. Answers are data; the server writes them.
 * @module
 */
import type { RefusalCode } from './refusal-codes.js'
import type { AgentBook, FilesKind } from './agent-book.js'
import { DefinitionProblem, normaliseDefinition } from './agent-definition.js'
import { AGENT_NAME } from './identity.js'
import { errorBody, refusalAnswer } from './refusal-answer.js'
import type { ProxyFeature } from '../server/types.js'

/** The API version `GET /viper/v1/info` reports. */
export const API_VERSION = 1

/** A local API request: the method, the path (a query is ignored) and the parsed JSON body. */
export interface AgentApiRequest {
  method: string
  path: string
  json: unknown
}

/** What the local API works on. */
export interface AgentApiContext {
  book: AgentBook
  /** What the proxy reports; a route whose feature is missing is refused. */
  features: readonly ProxyFeature[]
}

/** An answer as data: status, extra headers, JSON body. */
export interface AgentApiAnswer {
  status: number
  headers?: Record<string, string>
  body: unknown
}

type Route = { methods: Record<string, (ctx: AgentApiContext, json: unknown) => AgentApiAnswer> }

function refused(code: RefusalCode, message?: string, hint?: string): AgentApiAnswer {
  return refusalAnswer(code, 'local', { message, hint })
}

/** A malformed body: not a refusal of the proxy protocol, so it carries no mark. */
function badRequest(message: string): AgentApiAnswer {
  return { status: 400, body: errorBody('local', 'invalid_request', 400, message, null) }
}

function needs(ctx: AgentApiContext, feature: ProxyFeature): AgentApiAnswer | undefined {
  if (ctx.features.includes(feature)) return undefined
  return refused('feature_unsupported', `this proxy does not report the "${feature}" feature`, 'GET /viper/v1/info lists what it supports')
}

/** `{ [path]: text }` with at least one file, or `undefined`. */
function filesOf(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const entries = Object.entries(value)
  if (entries.length === 0 || entries.some(([path, text]) => path === '' || typeof text !== 'string')) return undefined
  return Object.fromEntries(entries) as Record<string, string>
}

function storeFiles(ctx: AgentApiContext, json: unknown, kind: FilesKind): AgentApiAnswer {
  const feature = kind === 'skill' ? 'skills' : 'instructions'
  const missing = needs(ctx, feature)
  if (missing) return missing
  const body = (typeof json === 'object' && json !== null ? json : {}) as { name?: unknown; files?: unknown }
  if (kind === 'skill' && (typeof body.name !== 'string' || body.name === '')) return badRequest('a skill needs a "name" (a non-empty string)')
  const files = filesOf(body.files)
  if (!files) return badRequest('"files" must be an object of { [path]: text } with at least one file')
  return { status: 200, body: { cid: ctx.book.storeFiles(kind, files, kind === 'skill' ? (body.name as string) : undefined) } }
}

/** Checks the `{agent}` path segment: well-formed, then enrolled. */
function checkAgent(ctx: AgentApiContext, agent: string): AgentApiAnswer | undefined {
  if (!AGENT_NAME.test(agent)) return refused('invalid_agent_name', `agent name ${JSON.stringify(agent)} is malformed`, `agent names match ${AGENT_NAME}`)
  if (!ctx.book.isEnrolled(agent)) return refused('agent_unknown', `agent ${JSON.stringify(agent)} is not enrolled`)
  return undefined
}

function putDefinition(ctx: AgentApiContext, agent: string, json: unknown): AgentApiAnswer {
  const refusal = needs(ctx, 'definitions') ?? checkAgent(ctx, agent)
  if (refusal) return refusal
  const definition = normaliseDefinition(json)
  if (definition instanceof DefinitionProblem) return refused('definition_invalid', definition.message)
  const featureRefusal =
    (definition.skills && needs(ctx, 'skills')) ||
    (definition.memory && needs(ctx, 'instructions')) ||
    (definition.subagents && needs(ctx, 'subagents'))
  if (featureRefusal) return featureRefusal
  const unknown = [
    ...(definition.skills ?? []).filter((cid) => !ctx.book.hasFiles(cid, 'skill')).map((cid) => `skill ${cid}`),
    ...(definition.memory && !ctx.book.hasFiles(definition.memory, 'instructions') ? [`memory ${definition.memory}`] : []),
  ]
  if (unknown.length > 0) {
    return refused('files_unknown', `the proxy does not hold ${unknown.join(', ')}`, 'store them first: POST /viper/v1/skills or /viper/v1/instructions')
  }
  return { status: 200, body: { cid: ctx.book.register(agent, definition) } }
}

function getDefinition(ctx: AgentApiContext, agent: string): AgentApiAnswer {
  const refusal = needs(ctx, 'definitions') ?? checkAgent(ctx, agent)
  if (refusal) return refusal
  const found = ctx.book.registration(agent)
  if (!found) return refused('definition_unknown', `agent ${JSON.stringify(agent)} has no registered definition`, `register one: PUT /viper/v1/agents/${agent}/definition`)
  return { status: 200, headers: { 'x-viper-definition': found.cid }, body: found.definition }
}

/** The route for `path`, or `undefined` when it is not a local API route. */
function route(path: string): Route | undefined {
  const clean = path.split('?')[0].replace(/\/+$/, '')
  if (clean === '/viper/v1/info') {
    return { methods: { GET: (ctx) => ({ status: 200, body: { api_version: API_VERSION, features: [...ctx.features] } }) } }
  }
  if (clean === '/viper/v1/skills') return { methods: { POST: (ctx, json) => storeFiles(ctx, json, 'skill') } }
  if (clean === '/viper/v1/instructions') return { methods: { POST: (ctx, json) => storeFiles(ctx, json, 'instructions') } }
  const match = /^\/viper\/v1\/agents\/([^/]+)\/definition$/.exec(clean)
  if (!match) return undefined
  let agent: string
  try {
    agent = decodeURIComponent(match[1])
  } catch {
    agent = match[1] // malformed escapes: the name check refuses it
  }
  return {
    methods: {
      PUT: (ctx, json) => putDefinition(ctx, agent, json),
      GET: (ctx) => getDefinition(ctx, agent),
    },
  }
}

/**
 * Answers one local agent API request, or returns `undefined` when `path` is not one of its
 * routes. A known route with the wrong method gets 405 with an `allow` header.
 * @example
 * await handleAgentApi({ method: 'GET', path: '/viper/v1/info', json: null }, { book, features: allFeatures })
 */
export async function handleAgentApi(req: AgentApiRequest, ctx: AgentApiContext): Promise<AgentApiAnswer | undefined> {
  const found = route(req.path)
  if (!found) return undefined
  const handler = found.methods[req.method.toUpperCase()]
  if (!handler) {
    const allow = Object.keys(found.methods).join(', ')
    return {
      status: 405,
      headers: { allow },
      body: errorBody('local', 'method_not_allowed', 405, `${req.method} is not allowed on ${req.path}`, `use ${allow}`),
    }
  }
  return handler(ctx, req.json)
}
