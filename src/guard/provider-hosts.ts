/**
 * The model providers' API hosts the network guard refuses (SPEC §8, §9), and how
 * `routeProvidersTo` maps each one onto a `FakeProxy`.
 * @module
 */
import type { ProviderHost } from '../wire/dialect.js'
import { providers } from '../wire/dialects.js'

/**
 * One provider API host, as its dialect folder declares it (src/wire/<provider>/provider.ts):
 * the guard keeps no list of its own, so a new provider's hosts come with its folder.
 */
type ProviderApi = ProviderHost

const providerApis: readonly ProviderApi[] = providers.flatMap((provider) => provider.hosts)

/**
 * The API hosts of the known model providers. `*` stands for part of one DNS label (an Azure
 * resource name, an AWS or Google Cloud region). A request to any of them, on any port, is a
 * real model call.
 * @example
 * providerHosts.includes('api.openai.com') // true
 */
export const providerHosts: readonly string[] = providerApis.map((api) => api.host)

// `*` matches within one label; everything else is literal.
const patterns = providerApis.map((api) => ({
  api,
  pattern: new RegExp(`^${api.host.split('*').map((part) => part.replaceAll('.', '\\.')).join('[a-z0-9-]+')}$`),
}))

/** `hostname` without a trailing dot, lower-cased, as patterns are written. */
export function normalHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '')
}

/**
 * Hostnames already judged: the guard asks about every request a test makes, nearly always of
 * the same few hosts (127.0.0.1 first), and a lookup is cheaper than trying every pattern.
 * Bounded, so a test walking many hosts cannot grow it: when full, it starts over.
 */
const judged = new Map<string, ProviderApi | null>()
const JUDGED_HOSTS = 256

function providerApiOf(hostname: string): ProviderApi | undefined {
  const known = judged.get(hostname)
  if (known !== undefined) return known ?? undefined
  const host = normalHost(hostname)
  const api = patterns.find(({ pattern }) => pattern.test(host))?.api
  if (judged.size >= JUDGED_HOSTS) judged.clear()
  judged.set(hostname, api ?? null)
  return api
}

/** Whether `hostname` (as in `URL.hostname`) is one of {@link providerHosts}. */
export function isProviderHost(hostname: string): boolean {
  return providerApiOf(hostname) !== undefined
}

/** The path the fake serves for `pathname` on `api`, or `undefined` when it serves none. */
function fakePath(api: ProviderApi, pathname: string): string | undefined {
  if (!api.openAiBase) return pathname
  for (const base of api.openAiBase) {
    if (base === '') return `/v1${pathname}`
    if (pathname === base || pathname.startsWith(`${base}/`)) return `/v1${pathname.slice(base.length)}`
  }
  return undefined
}

/**
 * A route for `installNetworkGuard` that sends every provider request to the fake at
 * `proxyUrl`, path and query kept (`https://api.openai.com/v1/chat/completions` →
 * `<proxyUrl>/v1/chat/completions`). OpenAI-compatible vendors land on the fake's OpenAI
 * routes (`https://api.groq.com/openai/v1/chat/completions` → `<proxyUrl>/v1/chat/completions`);
 * a path the fake does not serve (Cohere's own `/v2/chat`) and any other host get no route.
 * @example
 * const stopRouting = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
 */
export function routeProvidersTo(proxyUrl: string): (url: URL) => string | undefined {
  const base = proxyUrl.replace(/\/+$/, '')
  return (url) => {
    const api = providerApiOf(url.hostname)
    const path = api && fakePath(api, url.pathname)
    return path === undefined ? undefined : `${base}${path}${url.search}`
  }
}
