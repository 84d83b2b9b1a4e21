/**
 * The model providers' API hosts the network guard refuses (SPEC §8), and the two it can route
 * to a `FakeProxy`.
 * @module
 */

/**
 * The API hosts of the known model providers. `*` stands for one DNS label (an Azure resource
 * name, an AWS region). A request to any of them, on any port, is a real model call.
 * @example
 * providerHosts.includes('api.openai.com') // true
 */
export const providerHosts = [
  'api.openai.com',
  'api.anthropic.com',
  'generativelanguage.googleapis.com',
  'openrouter.ai',
  'api.mistral.ai',
  'api.groq.com',
  'api.together.xyz',
  'api.deepseek.com',
  'api.x.ai',
  'api.cohere.com',
  'api.cohere.ai',
  '*.openai.azure.com',
  'bedrock-runtime.*.amazonaws.com',
] as const

/** The provider hosts `interceptProviders` can route to a `FakeProxy`: their paths are the fake's own. */
export const routableProviderHosts = ['api.openai.com', 'api.anthropic.com'] as const

// `*` is one label; everything else is literal.
const patterns = providerHosts.map(
  (host) => new RegExp(`^${host.split('*').map((part) => part.replaceAll('.', '\\.')).join('[a-z0-9-]+')}$`),
)

/** `hostname` without a trailing dot, lower-cased, as patterns are written. */
function normalHost(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '')
}

/** Whether `hostname` (as in `URL.hostname`) is one of {@link providerHosts}. */
export function isProviderHost(hostname: string): boolean {
  const host = normalHost(hostname)
  return patterns.some((pattern) => pattern.test(host))
}

/**
 * A route for `installNetworkGuard` that sends requests to `api.openai.com` and
 * `api.anthropic.com` to the fake at `proxyUrl`, path and query kept
 * (`https://api.openai.com/v1/chat/completions` → `<proxyUrl>/v1/chat/completions`); other
 * provider hosts get no route, so the guard refuses them.
 * @example
 * const stopRouting = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
 */
export function routeProvidersTo(proxyUrl: string): (url: URL) => string | undefined {
  const base = proxyUrl.replace(/\/+$/, '')
  return (url) => {
    const host = normalHost(url.hostname)
    if (!(routableProviderHosts as readonly string[]).includes(host)) return undefined
    return `${base}${url.pathname}${url.search}`
  }
}
