/**
 * The error the network guard fails a real model call with: what happened, and each way to fix
 * it (SPEC §8; style lesson "messages name the fix").
 * @module
 */
import { PREFIX } from '../internal/describe.js'

/** The `code` of the error a refused real model call fails with. */
export const REAL_MODEL_CALL = 'AGENT_DOUBLES_REAL_MODEL_CALL'

/** The environment variable that turns the guard off (`1` or `true`). */
export const ALLOW_REAL_ENV = 'AGENT_DOUBLES_ALLOW_REAL'

const DOCS = 'https://www.npmjs.com/package/agent-doubles#network-guard'

/** What was refused, and whether a route to the fake was on for this request. */
export interface RefusedCall {
  method: string
  url: URL
  /** A route (`interceptProviders`) was on, but gave no target for this request. */
  routing: boolean
}

/**
 * The error for a refused call: an `Error` with `code` {@link REAL_MODEL_CALL}, `method` and
 * `url`. Node's `fetch` rejects with `TypeError: fetch failed` and it as `cause`, and the SDKs
 * wrap that in turn (e.g. `APIConnectionError: Connection error.`); `undici.request` rejects
 * with it, and a `node:http` request emits it as its `'error'`.
 */
export function realModelCallError({ method, url, routing }: RefusedCall): Error & { code: string; method: string; url: string } {
  const target = `${method} ${url.href}`
  const lines = [
    `${PREFIX} A real model was called: ${target}`,
    'The network guard of agent-doubles refused it before anything was sent.',
  ]
  if (routing) {
    lines.push(
      `The route to the fake proxy (interceptProviders) has no target for ${url.host}${url.pathname}: the fake serves no such API.`,
      'Point this client at the fake yourself:',
      '  - pass the fake\'s URL as the client\'s base URL (fakeProxy.url, or the proxy useFakeProxy returned), in the path layout the fake serves (see "Dialects served").',
    )
  } else {
    lines.push(
      'Point the client at the fake instead:',
      '  - with the fakeProxy fixture or useFakeProxy(), OPENAI_BASE_URL and ANTHROPIC_BASE_URL point at it while a test runs: build the client inside the test and pass it no baseURL;',
      '  - or pass the fake\'s URL: new OpenAI({ baseURL: `${proxy.url}/v1` }), new Anthropic({ baseURL: proxy.url }), createOpenAI({ baseURL: `${proxy.url}/v1` });',
      '  - or route clients that keep the default base URL to the fake: test.override({ fakeProxyOptions: { interceptProviders: true } }) in Vitest, useFakeProxy({ interceptProviders: true }) in Jest.',
    )
  }
  lines.push(
    `To call the real model on purpose, set ${ALLOW_REAL_ENV}=1 (read at each request), or allow the host: installNetworkGuard({ allow: ['${url.hostname}'] }).`,
    `Docs: ${DOCS}`,
  )
  return Object.assign(new Error(lines.join('\n')), { name: 'RealModelCallError', code: REAL_MODEL_CALL, method, url: url.href })
}
