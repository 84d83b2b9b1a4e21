/**
 * `ProxyClient`: the client half of the proxy's local agent API (SPEC §5.5), for tests and for
 * code that talks to a proxy. It uses only the global `fetch` (no SDK), so any model client
 * can be bound to an agent through it.
 * @module
 */
import { PREFIX, argumentError, checkOptions, is } from '../internal/describe.js'
import { createProxyError } from './proxy-error.js'
import { isRefusalCode } from './refusal-codes.js'
import { AgentBinding } from './agent-binding.js'
import { AGENT_NAME } from './identity.js'
import { rememberFailedAnswer, type FailedAnswer } from './local-api-failure.js'
import type { AgentDefinition, ProxyFeature } from '../server/types.js'

/** Options of a `ProxyClient`. */
export interface ProxyClientOptions {
  /** The fetch it sends with. @default the global `fetch`, looked up at each request */
  fetch?: typeof fetch
}

/** What `GET /viper/v1/info` answers. */
export interface ProxyInfo {
  api_version: number
  features: ProxyFeature[]
}

function isFiles(value: unknown): value is Record<string, string> {
  if (!is.object(value)) return false
  const entries = Object.entries(value as object)
  return entries.length > 0 && entries.every(([path, text]) => path !== '' && typeof text === 'string')
}

/** Reads `{ error: { code, message, hint } }` from a local API error body. */
function errorDetail(json: unknown): { message?: string; hint?: string } {
  const error = (json as { error?: { message?: unknown; hint?: unknown } } | undefined)?.error
  return {
    message: typeof error?.message === 'string' ? error.message : undefined,
    hint: typeof error?.hint === 'string' ? error.hint : undefined,
  }
}

/**
 * A client for a proxy's local agent API, and the way to bind model clients to an agent.
 * @example
 * const researcher = new ProxyClient(proxy.url).agent('researcher', { model: 'gpt-5' })
 * const client = new OpenAI({ apiKey: 'test', ...researcher.openai() })
 * @throws {TypeError} `url` is not an http(s) URL, or `options` are malformed.
 */
export class ProxyClient {
  /** The proxy's base URL, without a trailing slash. */
  readonly url: string
  readonly #fetch: typeof fetch | undefined

  constructor(url: string | URL, options?: ProxyClientOptions) {
    let parsed: URL | undefined
    try {
      parsed = new URL(String(url))
    } catch {
      parsed = undefined
    }
    if ((typeof url !== 'string' && !(url instanceof URL)) || !parsed || !/^https?:$/.test(parsed.protocol)) {
      throw argumentError('ProxyClient', 'url', 'an http(s) URL such as proxy.url', url)
    }
    checkOptions('ProxyClient', options, { fetch: ['a fetch function', is.function] })
    this.url = `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '')
    this.#fetch = options?.fetch
  }

  /** What the proxy reports: API version and features. */
  info(): Promise<ProxyInfo> {
    return this.call('GET', '/viper/v1/info') as Promise<ProxyInfo>
  }

  /**
   * Stores a skill's files with the proxy and returns their CID.
   * @example
   * const cid = await client.skill('search', { 'SKILL.md': '# Search the web' })
   */
  async skill(name: string, files: Record<string, string>): Promise<string> {
    if (typeof name !== 'string' || name === '') throw argumentError('ProxyClient', 'skill name', 'a non-empty string', name)
    if (!isFiles(files)) throw argumentError('ProxyClient', `files of skill "${name}"`, 'an object of { [path]: text } with at least one file', files)
    return this.#cid(await this.call('POST', '/viper/v1/skills', { name, files }))
  }

  /**
   * Stores memory files with the proxy and returns their CID, for a definition's `memory`.
   * @example
   * const memory = await client.instructions({ 'AGENTS.md': 'Cite your sources.' })
   */
  async instructions(files: Record<string, string>): Promise<string> {
    if (!isFiles(files)) throw argumentError('ProxyClient', 'instruction files', 'an object of { [path]: text } with at least one file', files)
    return this.#cid(await this.call('POST', '/viper/v1/instructions', { files }))
  }

  /**
   * A binding for `name`: model clients configured through it name the agent, and register
   * `definition` before their first request.
   * @example
   * const researcher = client.agent('researcher', { model: 'gpt-5', instructions: 'Be brief.' })
   * @throws {TypeError} `name` is not a valid agent name, or `definition` has no string `model`.
   */
  agent(name: string, definition?: AgentDefinition): AgentBinding {
    if (typeof name !== 'string' || !AGENT_NAME.test(name)) throw argumentError('ProxyClient', 'agent name', `a string matching ${AGENT_NAME}`, name)
    if (definition !== undefined && (!is.object(definition) || typeof definition.model !== 'string' || definition.model === '')) {
      throw argumentError(`ProxyClient agent "${name}"`, 'definition', 'an object with a non-empty string "model"', definition)
    }
    return new AgentBinding({ client: this, agent: name, definition: definition && structuredClone(definition) })
  }

  /** The fetch requests go through: the option, else the global one at call time. @internal */
  get fetchFunction(): typeof fetch {
    return this.#fetch ?? globalThis.fetch
  }

  /**
   * Calls the local API and returns its JSON answer.
   * @throws {ProxyError} The proxy refused (its answer carries the `x-viper-error` mark).
   * @throws {Error} Any other failed answer.
   * @internal
   */
  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await this.fetchFunction(`${this.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    if (response.ok && json !== undefined) return json
    const answer: FailedAnswer = { status: response.status, headers: Object.fromEntries(response.headers), text }
    const mark = response.headers.get('x-viper-error')
    const error = mark !== null && isRefusalCode(mark)
      ? createProxyError(mark, { ...errorDetail(json), status: response.status })
      : new Error(`${PREFIX} ProxyClient: ${method} ${path} answered ${response.status}${errorDetail(json).message ? `: ${errorDetail(json).message}` : text ? `: ${text.slice(0, 200)}` : ''}`)
    throw rememberFailedAnswer(error, answer)
  }

  #cid(json: unknown): string {
    const cid = (json as { cid?: unknown } | undefined)?.cid
    if (typeof cid !== 'string') throw new Error(`${PREFIX} ProxyClient: the proxy answered without a "cid": ${JSON.stringify(json)}`)
    return cid
  }
}
