/**
 * `AgentBinding`: what `ProxyClient.agent()` returns — a fetch, and client options for
 * `openai` and `@anthropic-ai/sdk`, that name the agent on every model request and keep its
 * definition registered.
 * @module
 */
import { argumentError } from '../internal/describe.js'
import { isProxyError } from './proxy-error.js'
import { AGENT_NAME, IDENTITY_HEADERS } from './identity.js'
import { failedAnswerOf } from './local-api-failure.js'
import { refusalAnswer } from './refusal-answer.js'
import { withRequestId } from '../wire/anthropic-messages/errors.js'
import type { AgentDefinition } from '../server/types.js'

/**
 * What a binding uses of the `ProxyClient` that made it. Named here, not imported, so
 * proxy-client.ts (which makes bindings) and this file do not import each other.
 */
interface ProxyClient {
  readonly url: string
  readonly fetchFunction: typeof fetch
  call(method: string, path: string, body?: unknown): Promise<unknown>
}

/** Client options to spread into `new OpenAI({...})` or `new Anthropic({...})`. */
export interface BoundClientOptions {
  baseURL: string
  fetch: typeof fetch
}

/**
 * Registers one agent's definition at most once at a time: every request shares the pending
 * registration, and after a `definition_unknown` only the first request to notice starts a new
 * one. A failed registration is forgotten, so the next request tries again. @internal
 */
export class Registrar {
  #current: Promise<string> | undefined
  constructor(private readonly put: () => Promise<string>) {}

  ensure(): Promise<string> {
    return (this.#current ??= this.#start())
  }

  renew(stale: Promise<string>): Promise<string> {
    if (this.#current === stale || this.#current === undefined) this.#current = this.#start()
    return this.#current
  }

  #start(): Promise<string> {
    const pending = this.put()
    pending.catch(() => {
      if (this.#current === pending) this.#current = undefined
    })
    return pending
  }
}

/** A request with its body read once, so it can be sent again. */
interface Prepared {
  url: string
  init: RequestInit
}

async function prepare(input: string | URL | Request, init: RequestInit | undefined): Promise<Prepared> {
  const request = new Request(input, init)
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined
  const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined)
  return {
    url: request.url,
    init: { ...init, method: request.method, headers: new Headers(request.headers), body, signal, redirect: request.redirect },
  }
}

function isDefinitionUnknown(response: Response): boolean {
  return response.status === 409 && response.headers.get('x-viper-error') === 'definition_unknown'
}

/**
 * A failed registration, as the HTTP answer the model client meets: a refusal in the route's
 * own error shape (so the SDK raises its usual error, which `proxyError` reads), or the local
 * answer unchanged. Network failures stay thrown.
 */
function registrationFailure(err: unknown, url: string): Response {
  const answer = failedAnswerOf(err)
  if (!answer) throw err
  if (isProxyError(err)) {
    const style = new URL(url).pathname.endsWith('/messages') ? 'anthropic' : 'openai'
    const refusal = refusalAnswer(err.code, style, { message: err.message, hint: err.hint })
    return new Response(JSON.stringify(style === 'anthropic' ? withRequestId(refusal.body) : refusal.body), { status: err.status, headers: refusal.headers })
  }
  return new Response(answer.text, { status: answer.status, headers: answer.headers })
}

/**
 * One agent (or one of its subagents) bound to a proxy. Its `fetch` adds `X-Viper-Agent`,
 * `X-Viper-Definition` and `X-Viper-Subagent`, registers the definition before the first model
 * request, and after a `definition_unknown` (a restarted proxy) registers again and resends once.
 */
export class AgentBinding {
  /** The agent's name. */
  readonly agent: string
  /** The subagent path it speaks for, such as `'critic/fact-checker'`. */
  readonly subagentPath: string | undefined
  readonly #client: ProxyClient
  readonly #definition: AgentDefinition | undefined
  readonly #registrar: Registrar | undefined

  /** @internal Use `ProxyClient.agent()`. */
  constructor(init: { client: ProxyClient; agent: string; definition?: AgentDefinition; subagentPath?: string; registrar?: Registrar }) {
    this.#client = init.client
    this.agent = init.agent
    this.#definition = init.definition
    this.subagentPath = init.subagentPath
    this.#registrar =
      init.registrar ??
      (init.definition &&
        new Registrar(async () => {
          const path = `/viper/v1/agents/${encodeURIComponent(init.agent)}/definition`
          const answer = (await init.client.call('PUT', path, init.definition)) as { cid?: unknown }
          if (typeof answer?.cid !== 'string') throw new Error(`[agent-doubles] ProxyClient: PUT ${path} answered without a "cid"`)
          return answer.cid
        }))
  }

  /** A copy of the definition it registers, if it has one. */
  get definition(): AgentDefinition | undefined {
    return this.#definition && structuredClone(this.#definition)
  }

  /**
   * A fetch that names the agent on every request; give it to any client that takes one.
   * @example
   * await researcher.fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body })
   */
  readonly fetch: typeof fetch = (input, init) => this.#send(input, init)

  /**
   * Options for `new OpenAI({...})`: the proxy's `/v1` base URL and the agent's fetch.
   * @example
   * new OpenAI({ apiKey: 'test', ...researcher.openai() })
   */
  openai(): BoundClientOptions {
    return { baseURL: `${this.#client.url}/v1`, fetch: this.fetch }
  }

  /**
   * Options for `new Anthropic({...})`: the proxy's base URL and the agent's fetch.
   * @example
   * new Anthropic({ apiKey: 'test', ...researcher.anthropic() })
   */
  anthropic(): BoundClientOptions {
    return { baseURL: this.#client.url, fetch: this.fetch }
  }

  /**
   * A binding for a subagent of this agent: the same agent and definition, with requests
   * carrying `X-Viper-Subagent`. Paths nest: `subagent('critic').subagent('fact-checker')`.
   * @example
   * const checker = researcher.subagent('critic/fact-checker')
   * @throws {TypeError} A path segment is not a valid agent name.
   */
  subagent(path: string | readonly string[]): AgentBinding {
    const segments = typeof path === 'string' ? path.split('/') : Array.isArray(path) ? [...path] : undefined
    if (!segments || segments.length === 0 || !segments.every((segment) => typeof segment === 'string' && AGENT_NAME.test(segment))) {
      throw argumentError(`ProxyClient agent "${this.agent}"`, 'subagent path', `agent names joined by "/", each matching ${AGENT_NAME}`, path)
    }
    const joined = [...(this.subagentPath ? [this.subagentPath] : []), ...segments].join('/')
    return new AgentBinding({ client: this.#client, agent: this.agent, definition: this.#definition, subagentPath: joined, registrar: this.#registrar })
  }

  /**
   * Registers the definition now (once; later calls share the result) and returns its CID;
   * `undefined` when the binding has no definition.
   * @throws {ProxyError} The proxy refused the definition.
   */
  async register(): Promise<string | undefined> {
    return this.#registrar?.ensure()
  }

  async #send(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const prepared = await prepare(input, init)
    let registration = this.#registrar?.ensure()
    let response: Response
    try {
      response = await this.#sendOnce(prepared, registration && (await registration))
    } catch (err) {
      return registrationFailure(err, prepared.url)
    }
    if (!registration || !this.#registrar || !isDefinitionUnknown(response)) return response
    await response.body?.cancel().catch(() => undefined)
    registration = this.#registrar.renew(registration)
    try {
      return await this.#sendOnce(prepared, await registration)
    } catch (err) {
      return registrationFailure(err, prepared.url)
    }
  }

  #sendOnce(prepared: Prepared, cid: string | undefined): Promise<Response> {
    const headers = new Headers(prepared.init.headers)
    headers.set(IDENTITY_HEADERS.agent, this.agent)
    if (cid !== undefined) headers.set(IDENTITY_HEADERS.definition, cid)
    if (this.subagentPath !== undefined) headers.set(IDENTITY_HEADERS.subagent, this.subagentPath)
    return this.#client.fetchFunction(prepared.url, { ...prepared.init, headers })
  }
}
