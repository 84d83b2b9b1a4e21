/**
 * The network guard (SPEC §8, §9): every outgoing HTTP request of the process is routed (when a
 * route names a target) or, when it goes to a model provider's host, refused before anything is
 * sent. Runner-free; the setup entries and fixtures install it.
 *
 * It sits below `fetch`, on undici's global dispatcher (Node's `fetch` runs on it), and on
 * `node:http`/`node:https`/`node:http2`, so clients built before the install are caught too (see
 * src/routing/). State is kept once per global object (shared by the ESM and CJS copies of this
 * package through a `Symbol.for` key) and nested installs stack on it.
 * @module
 */
import { checkOptions, describeValue, is, PREFIX } from '../internal/describe.js'
import { PASS, QUICK_PASS, type Decision } from '../routing/decision.js'
import { hookGlobalDispatcher, mainRealm } from '../routing/dispatcher.js'
import { hookForeignFetch } from '../routing/foreign-fetch.js'
import { hookNodeHttp } from '../routing/node-http.js'
import { hookNodeHttp2 } from '../routing/node-http2.js'
import { isProviderHost, normalHost } from './provider-hosts.js'
import { ALLOW_REAL_ENV, guardAnswer, realModelCallError } from './real-model-call.js'
import { noTargetReason, routePasses } from './route-reason.js'
import { activeProxyUrl } from './active-proxy.js'

/** Options of {@link installNetworkGuard}. */
export interface NetworkGuardOptions {
  /**
   * While this install is the latest with a route: consulted for every outgoing HTTP request
   * (any host), synchronously and in the caller's async context. A string is the absolute URL
   * the request goes to instead (method, headers and body kept); `undefined` leaves it alone.
   * @default no request is routed
   */
  route?: (url: URL) => string | undefined
  /**
   * Provider hostnames (e.g. `'api.openai.com'`) this install lets through to the real API.
   * @default none
   */
  allow?: readonly string[]
}

interface Install {
  route?: (url: URL) => string | undefined
  allow: ReadonlySet<string>
  /** A refused call with no route to judge it is answered (421) rather than failed: the setup entries' guard. */
  answers: boolean
}

interface GuardState {
  installs: Install[]
  /** Takes the hooks off (the dispatchers, `node:http`, `node:http2`, a foreign `fetch`). */
  unhook: () => void
}

const KEY = Symbol.for('agent-doubles.network-guard')

type Holder = Record<symbol, GuardState | undefined>
const holder = globalThis as unknown as Holder

function allowReal(): boolean {
  const value = globalThis.process?.env?.[ALLOW_REAL_ENV]?.trim().toLowerCase()
  return value === '1' || value === 'true'
}

/** The absolute http(s) URL a route returned, or the error saying what it returned instead. */
function routeTarget(target: unknown, url: URL): URL | Error {
  if (typeof target === 'string') {
    try {
      const parsed = new URL(target)
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed
    } catch {
      // reported below
    }
  }
  return new TypeError(
    `${PREFIX} installNetworkGuard: option route must return an absolute http(s) URL or undefined, got ${describeValue(target)} for ${url.href}`,
  )
}

/** Whether a request to `url` may leave for the real provider. */
function mayLeave(state: GuardState, url: URL): boolean {
  if (!isProviderHost(url.hostname) || allowReal()) return true
  const host = normalHost(url.hostname)
  return state.installs.some((install) => install.allow.has(host))
}

/** The errors this guard failed requests with. */
const refusals = new WeakSet<object>()

function refuse(error: Error): Decision {
  refusals.add(error)
  return { action: 'refuse', error }
}

/** A refusal answered with the guard's 4xx (see {@link guardAnswer}). */
function refuseAnswering(error: Error): Decision {
  refusals.add(error)
  return { action: 'refuse', error, answer: guardAnswer(error) }
}

const isRefusal = (error: unknown): boolean => typeof error === 'object' && error !== null && refusals.has(error)

/**
 * The guard's decision for one request, from the installs live now (a hook kept after the last
 * uninstall only passes requests through).
 */
function decide(url: URL, method: string): Decision {
  const state = holder[KEY]
  if (!state || state.installs.length === 0) return PASS
  const route = state.installs.findLast((install) => install.route)?.route
  let target = url
  if (route) {
    let returned: unknown
    try {
      returned = route(url)
    } catch (error) {
      return refuse(error instanceof Error ? error : new Error(String(error)))
    }
    if (returned !== undefined) {
      const parsed = routeTarget(returned, url)
      if (parsed instanceof Error) return refuse(parsed)
      target = parsed
    }
  }
  // A route to a provider host is checked like any request: routing is no way around the guard.
  if (!mayLeave(state, target)) {
    if (route === undefined) {
      // No route at all (a setup entry's guard, or the user's own): the test has no fake proxy
      // routing provider calls. The setup entries answer so the SDK does not retry.
      const answered = state.installs.some((install) => install.answers)
      const error = realModelCallError({ method, url: target, routing: false, answered, activeProxy: activeProxyUrl() })
      return answered ? refuseAnswering(error) : refuse(error)
    }
    const routing = target === url
    const noActiveProxy = routing && noTargetReason(route, url) === 'no-active-proxy'
    const error = realModelCallError({ method, url: target, routing: routing && !noActiveProxy, noActiveProxy })
    // No fake to reach in this test: answer (a 4xx no SDK retries) rather than fail the
    // connection, which every SDK retries with backoff.
    return noActiveProxy ? refuseAnswering(error) : refuse(error)
  }
  return target === url ? PASS : { action: 'route', url: target }
}

/**
 * {@link decide}'s quick check (see `QUICK_PASS`): the latest route says at once that it leaves
 * a request alone, and such a route answers so only for the fake's own hosts, no provider's.
 */
function quickPass(origin: string, path: string): boolean {
  const state = holder[KEY]
  if (!state || state.installs.length === 0) return true
  const route = state.installs.findLast((install) => install.route)?.route
  return route !== undefined && routePasses(route, origin, path)
}
Object.defineProperty(decide, QUICK_PASS, { value: quickPass })

const isHostList = (value: unknown): boolean => Array.isArray(value) && value.every((host) => typeof host === 'string' && host !== '')

/**
 * Installs the network guard: from now on an HTTP request to a provider host (`providerHosts`)
 * fails at once (nothing is sent) with an error that names the call and how to reach the fake,
 * unless `AGENT_DOUBLES_ALLOW_REAL=1` (read at each request), the host is in `allow`, or a
 * `route` sends it elsewhere. It catches `fetch` (also one a client captured earlier),
 * `undici.request`/`undici.fetch`, `http`/`https` `request`/`get` and `http2.connect`.
 * Installing again stacks; the returned function removes this install, and the last one out
 * puts back exactly what was there (the global dispatcher, the `node:http`/`node:https`/
 * `node:http2` functions, a foreign realm's `fetch`); a dispatcher Node's `fetch` made when the
 * install asked for one stays, as after any `fetch`.
 * @example
 * const uninstall = installNetworkGuard({ route: routeProvidersTo(proxy.url), allow: ['api.groq.com'] })
 * afterAll(uninstall)
 * @throws {TypeError} `options.route` is not a function, or `options.allow` not an array of hostnames.
 */
export function installNetworkGuard(options: NetworkGuardOptions = {}): () => void {
  checkOptions('installNetworkGuard', options, {
    route: ['a function (url: URL) => string | undefined', is.function],
    allow: ['an array of hostnames', isHostList],
  })
  return addInstall({ route: options.route, allow: new Set((options.allow ?? []).map(normalHost)), answers: false })
}

/**
 * The setup entries' guard: {@link installNetworkGuard} with no route, whose refusals of calls no
 * route judged are answered 421 (`x-should-retry: false`) rather than
 * failed, so the SDKs do not retry a call that can only be refused again (SPEC §22). @internal
 */
export function installSetupGuard(): () => void {
  return addInstall({ allow: new Set(), answers: true })
}

function addInstall(install: Install): () => void {
  let state = holder[KEY]
  if (!state) {
    // This realm's dispatcher serves its own copy of undici; the main realm's serves Node's fetch.
    const realms = new Set([globalThis, mainRealm()])
    const unhooks = [
      ...[...realms].map((realm) => hookGlobalDispatcher(realm)(decide)),
      hookNodeHttp(decide),
      hookNodeHttp2(decide),
      hookForeignFetch(isRefusal),
    ]
    state = { installs: [], unhook: () => unhooks.reverse().forEach((unhook) => unhook()) }
    holder[KEY] = state
  }
  state.installs.push(install)
  const current = state
  let installed = true
  return () => {
    if (!installed) return
    installed = false
    current.installs.splice(current.installs.indexOf(install), 1)
    if (current.installs.length > 0) return
    if (holder[KEY] === current) delete holder[KEY]
    current.unhook()
  }
}

/** Whether the network guard is installed on this global object. @internal */
export function isNetworkGuardInstalled(): boolean {
  return holder[KEY] !== undefined
}
