/**
 * The network guard (SPEC §8): wraps `globalThis.fetch` so a request to a model provider's
 * host fails at once, before anything is sent — or goes to a `FakeProxy` when a route is on.
 * Runner-free; the setup entries and fixtures install it.
 *
 * The wrapper is installed once per global object (shared by the ESM and CJS copies of this
 * package through a `Symbol.for` key) and nested installs stack on it. Jest runs each file in a
 * vm sandbox with its own `globalThis`, so installing from a setup file patches the fetch that
 * file's code sees. The `openai` and `@anthropic-ai/sdk` clients read the global fetch when
 * they are constructed; the AI SDK reads it at each call.
 * @module
 */
import { argumentError, checkOptions, is } from '../internal/describe.js'
import { isProviderHost } from './provider-hosts.js'
import { ALLOW_REAL_ENV, realModelCallError } from './real-model-call.js'

/** Options of {@link installNetworkGuard}. */
export interface NetworkGuardOptions {
  /**
   * While this install is the latest with a route: the URL a provider request goes to instead
   * (e.g. a `FakeProxy`), or `undefined` to refuse it.
   * @default every provider request is refused
   */
  route?: (url: URL) => string | undefined
}

type Fetch = typeof globalThis.fetch

interface Install {
  route?: (url: URL) => string | undefined
}

interface GuardState {
  /** The fetch the guard calls through to, and puts back when the last install leaves. */
  original: Fetch
  /** The wrapper set as `globalThis.fetch`. */
  guarded: Fetch
  installs: Install[]
}

const KEY = Symbol.for('agent-doubles.network-guard')

/**
 * A flag for a fetch's `init` that lets one request pass the guard: record mode's forwarding
 * (SPEC §5.8), which is real traffic by request. The real fetch ignores unknown keys.
 * @internal
 */
export const PASS_GUARD = Symbol.for('agent-doubles.pass-network-guard')

type Holder = Record<symbol, GuardState | undefined>

function allowReal(): boolean {
  const value = globalThis.process?.env?.[ALLOW_REAL_ENV]?.trim().toLowerCase()
  return value === '1' || value === 'true'
}

function requestUrl(input: Parameters<Fetch>[0]): URL | undefined {
  try {
    if (input instanceof URL) return input
    if (typeof input === 'string') return new URL(input)
    return new URL((input as Request).url)
  } catch {
    return undefined // not absolute: the real fetch reports it
  }
}

function requestMethod(input: Parameters<Fetch>[0], init: RequestInit | undefined): string {
  const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : undefined)
  return (method ?? 'GET').toUpperCase()
}

function makeGuarded(state: GuardState): Fetch {
  return async function guardedFetch(input, init) {
    // A client keeps the wrapper it took when constructed; after an uninstall and a new install
    // (the next test file, under Vitest's `isolate: false`) the live installs decide for it too.
    const installs = ((globalThis as unknown as Holder)[KEY] ?? state).installs
    const url = installs.length > 0 ? requestUrl(input) : undefined
    if (!url || !isProviderHost(url.hostname) || (init as Record<symbol, unknown> | undefined)?.[PASS_GUARD] === true) {
      return state.original(input, init)
    }
    const route = installs.findLast((install) => install.route)?.route
    const target = route?.(url)
    if (target !== undefined) {
      // A Request carries its own method, headers and body: copy them onto the new URL.
      const routed = typeof input === 'object' && !(input instanceof URL) ? new Request(target, input) : target
      return state.original(routed, init)
    }
    if (allowReal()) return state.original(input, init)
    throw realModelCallError({ method: requestMethod(input, init), url, routing: route !== undefined })
  }
}

/**
 * Installs the network guard: from now on a `fetch` to a provider host (`providerHosts`)
 * fails at once (nothing is sent) with an error that names the call and how to reach the fake,
 * unless `AGENT_DOUBLES_ALLOW_REAL=1` (read at each request) or a `route` sends it elsewhere.
 * Installing again stacks on the same wrapper; the returned function removes this install, and
 * the last one out puts back the exact fetch that was there.
 * @example
 * const uninstall = installNetworkGuard()
 * afterAll(uninstall)
 * @throws {TypeError} `options.route` is not a function.
 */
export function installNetworkGuard(options: NetworkGuardOptions = {}): () => void {
  checkOptions('installNetworkGuard', options, { route: ['a function (url: URL) => string | undefined', is.function] })
  const holder = globalThis as unknown as Holder
  let state = holder[KEY]
  if (!state) {
    const original = globalThis.fetch
    if (typeof original !== 'function') throw argumentError('installNetworkGuard', 'globalThis.fetch', 'a function', original)
    const created: GuardState = { original, guarded: original, installs: [] }
    created.guarded = makeGuarded(created)
    state = created
    holder[KEY] = state
    globalThis.fetch = state.guarded
  }
  const install: Install = { route: options.route }
  state.installs.push(install)
  const current = state
  let installed = true
  return () => {
    if (!installed) return
    installed = false
    current.installs.splice(current.installs.indexOf(install), 1)
    if (current.installs.length > 0) return
    // The last install left: the wrapper now only calls through (a client may still hold it).
    if (holder[KEY] === current) delete holder[KEY]
    // Put the original back unless someone replaced fetch after us; theirs stays theirs.
    if (globalThis.fetch === current.guarded) globalThis.fetch = current.original
  }
}

/** Whether the network guard is installed on this global object. @internal */
export function isNetworkGuardInstalled(): boolean {
  return (globalThis as unknown as Holder)[KEY] !== undefined
}
