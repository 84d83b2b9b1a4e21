/**
 * The error the network guard fails a real model call with: what happened, and each way to fix
 * it (SPEC §8; style lesson "messages name the fix").
 * @module
 */
import { PREFIX } from '../internal/describe.js'
import type { GuardAnswer } from '../routing/answer.js'

/** The `code` of the error a refused real model call fails with. */
export const REAL_MODEL_CALL = 'AGENT_DOUBLES_REAL_MODEL_CALL'

/** The environment variable that turns the guard off (`1` or `true`). */
export const ALLOW_REAL_ENV = 'AGENT_DOUBLES_ALLOW_REAL'

/** Where the guard is documented: a page of the docs site, also readable in the repository. */
export const NETWORK_GUARD_DOCS = 'docs/reference/network-guard.md (the docs site\'s /reference/network-guard)'

/** The status the guard answers with when it answers: 421 Misdirected Request, which no SDK retries. */
export const GUARD_ANSWER_STATUS = 421

/** What was refused, and whether a route to the fake was on for this request. */
export interface RefusedCall {
  method: string
  url: URL
  /** A route (`interceptProviders`) was on, but gave no target for this request's path. */
  routing: boolean
  /**
   * A route to a fake proxy is on for this file, but no test using it is running: the request
   * comes from a test without the fixture.
   */
  noActiveProxy?: boolean
  /** No route judged the call, and the guard answers it with {@link guardAnswer} (the setup entries' guard). */
  answered?: boolean
  /** The URL of the fake proxy the running test uses, when one is marked active. */
  activeProxy?: string
}

/**
 * The error for a refused call: an `Error` with `code` {@link REAL_MODEL_CALL}, `method` and
 * `url`. Node's `fetch` rejects with `TypeError: fetch failed` and it as `cause`, and the SDKs
 * wrap that in turn (e.g. `APIConnectionError: Connection error.`); `undici.request` rejects
 * with it, and a `node:http` request emits it as its `'error'`. When no fake proxy is active
 * in the test, the guard answers with {@link guardAnswer} instead.
 */
export function realModelCallError({ method, url, routing, noActiveProxy = false, answered = false, activeProxy }: RefusedCall): Error & { code: string; method: string; url: string } {
  const target = `${method} ${url.href}`
  const lines = [`${PREFIX} A real model was called: ${target}`]
  if (noActiveProxy) {
    lines.push(
      'No fake proxy is active in this test: this file routes provider calls to the fakeProxy fixture, but only while a test that uses the fixture runs, and this test does not use it.',
      refusedLine(true),
      'To get a fake proxy in this test:',
      '  - take the fixture: test(\'…\', async ({ fakeProxy }) => { fakeProxy.use(…); … }) — OPENAI_BASE_URL and ANTHROPIC_BASE_URL point at it while the test runs, and provider calls are routed to it;',
      '  - or start one yourself: const proxy = await new FakeProxy().start(), and pass proxy.url as the client\'s base URL (close it afterwards).',
    )
  } else if (routing) {
    lines.push(
      'The network guard of agent-doubles refused it before anything was sent.',
      `The route to the fake proxy (interceptProviders) has no target for ${url.host}${url.pathname}: the fake serves no such API.`,
      'Point this client at the fake yourself:',
      '  - pass the fake\'s URL as the client\'s base URL (fakeProxy.url, or the proxy useFakeProxy returned), in the path layout the fake serves (see "Dialects served").',
    )
  } else if (activeProxy !== undefined) {
    lines.push(
      `A fake proxy is active in this test (${activeProxy}), but this client does not point at it: it was built with its default base URL before the test pointed OPENAI_BASE_URL and ANTHROPIC_BASE_URL at the fake (at module level, say), or was given another one.`,
      refusedLine(answered),
      'Point the client at the fake:',
      '  - build the client inside the test and pass it no baseURL (the environment points it at the fake);',
      '  - or pass the fake\'s URL: new OpenAI({ baseURL: `${proxy.url}/v1` }), new Anthropic({ baseURL: proxy.url }), createOpenAI({ baseURL: `${proxy.url}/v1` });',
      '  - or route clients that keep the default base URL to the fake: leave interceptProviders on (it is by default) in fakeProxyOptions or useFakeProxy().',
    )
  } else if (answered) {
    lines.push(
      'No fake proxy is active in this test: nothing in it points this client at a fake, or routes provider calls to one.',
      refusedLine(true),
      'To get a fake proxy in this test:',
      '  - Vitest: import { test } from \'agent-doubles/vitest\' and take the fixture: test(\'…\', async ({ fakeProxy }) => { fakeProxy.use(…); … }) — OPENAI_BASE_URL and ANTHROPIC_BASE_URL point at it while the test runs, and provider calls are routed to it;',
      '  - Jest: const proxy = useFakeProxy() (from \'agent-doubles/jest\') at the top of the file does the same for each of its tests;',
      '  - or start one yourself: const proxy = await new FakeProxy().start(), and pass proxy.url as the client\'s base URL (close it afterwards).',
    )
  } else {
    lines.push(
      'The network guard of agent-doubles refused it before anything was sent: no fake proxy is reachable from this client.',
      'Point the client at the fake instead:',
      '  - with the fakeProxy fixture or useFakeProxy(), OPENAI_BASE_URL and ANTHROPIC_BASE_URL point at it while a test runs: build the client inside the test and pass it no baseURL;',
      '  - or pass the fake\'s URL: new OpenAI({ baseURL: `${proxy.url}/v1` }), new Anthropic({ baseURL: proxy.url }), createOpenAI({ baseURL: `${proxy.url}/v1` });',
      '  - or route clients that keep the default base URL to the fake: test.override({ fakeProxyOptions: { interceptProviders: true } }) in Vitest, useFakeProxy({ interceptProviders: true }) in Jest.',
    )
  }
  lines.push(
    `To call the real model on purpose, set ${ALLOW_REAL_ENV}=1 (read at each request), or allow the host: installNetworkGuard({ allow: ['${url.hostname}'] }).`,
    `Docs: ${NETWORK_GUARD_DOCS}`,
  )
  return Object.assign(new Error(lines.join('\n')), { name: 'RealModelCallError', code: REAL_MODEL_CALL, method, url: url.href })
}

/** What the guard did with the call. */
function refusedLine(answered: boolean): string {
  return answered
    ? `The network guard of agent-doubles refused the call before anything was sent, and answered ${GUARD_ANSWER_STATUS} (x-should-retry: false) so the client does not retry.`
    : 'The network guard of agent-doubles refused it before anything was sent.'
}

/**
 * The response the guard answers a refused call with: {@link GUARD_ANSWER_STATUS} and
 * `x-should-retry: false` (the openai and Anthropic clients honour it; neither retries a 421
 * anyway, nor does the AI SDK), and a JSON body every SDK reads its message from — `message` at
 * the top (Anthropic's client prints it), and `error.message` (OpenAI's, Google's).
 */
export function guardAnswer(error: Error & { code?: string }): GuardAnswer {
  const body = {
    type: 'error',
    message: error.message,
    error: { type: 'agent_doubles_real_model_call', code: error.code ?? REAL_MODEL_CALL, message: error.message, status: 'FAILED_PRECONDITION' },
  }
  return {
    status: GUARD_ANSWER_STATUS,
    statusText: 'Misdirected Request',
    headers: { 'content-type': 'application/json', 'x-should-retry': 'false', 'x-agent-doubles-refusal': REAL_MODEL_CALL },
    body: JSON.stringify(body),
  }
}
