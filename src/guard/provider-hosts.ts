/**
 * The model providers' API hosts the network guard refuses (SPEC §8, §9), and how
 * `routeProvidersTo` maps each one onto a `FakeProxy`.
 * @module
 */

/**
 * One provider API. `openAiBase`: an OpenAI-compatible vendor's base paths, tried in order; the
 * matching one is replaced by the fake's `/v1`. Hosts without it keep their path (the fake
 * serves their own layout: OpenAI, Anthropic, Gemini, Azure, Bedrock).
 */
interface ProviderApi {
  readonly host: string
  readonly openAiBase?: readonly string[]
}

const providerApis: readonly ProviderApi[] = [
  { host: 'api.openai.com' },
  { host: 'api.anthropic.com' },
  { host: 'generativelanguage.googleapis.com' },
  { host: 'aiplatform.googleapis.com' },
  { host: '*-aiplatform.googleapis.com' },
  // Vertex AI's multi-regional endpoints (`eu`, `us`).
  { host: 'aiplatform.*.rep.googleapis.com' },
  { host: '*.openai.azure.com' },
  { host: '*.cognitiveservices.azure.com' },
  { host: '*.services.ai.azure.com' },
  { host: 'bedrock-runtime.*.amazonaws.com' },
  { host: 'bedrock-runtime-fips.*.amazonaws.com' },
  { host: 'bedrock-runtime.*.amazonaws.com.cn' },
  { host: 'api.mistral.ai', openAiBase: ['/v1'] },
  { host: 'codestral.mistral.ai', openAiBase: ['/v1'] },
  { host: 'api.groq.com', openAiBase: ['/openai/v1'] },
  // DeepSeek and Perplexity document a base URL without `/v1`.
  { host: 'api.deepseek.com', openAiBase: ['/v1', ''] },
  { host: 'api.x.ai', openAiBase: ['/v1'] },
  { host: 'openrouter.ai', openAiBase: ['/api/v1'] },
  { host: 'api.together.xyz', openAiBase: ['/v1'] },
  { host: 'api.together.ai', openAiBase: ['/v1'] },
  { host: 'api.fireworks.ai', openAiBase: ['/inference/v1'] },
  { host: 'api.perplexity.ai', openAiBase: ['/v1', ''] },
  // Cohere's own API (`/v2/chat`) is not served by the fake; its OpenAI-compatible one is.
  { host: 'api.cohere.com', openAiBase: ['/compatibility/v1'] },
  { host: 'api.cohere.ai', openAiBase: ['/compatibility/v1'] },
]

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

function providerApiOf(hostname: string): ProviderApi | undefined {
  const host = normalHost(hostname)
  return patterns.find(({ pattern }) => pattern.test(host))?.api
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
