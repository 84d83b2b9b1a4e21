/**
 * `agent-doubles/playwright`: Playwright Test's `test` with a `fakeProxy` fixture (a lane per
 * test of a FakeProxy shared by the worker) and its `expect` with the agent-doubles matchers,
 * for end-to-end tests of AI web apps (SPEC §17). `@playwright/test` is an optional peer.
 * @example
 * import { expect, test } from 'agent-doubles/playwright'
 *
 * test('answers in the chat', async ({ page, fakeProxy, scriptedLLM }) => {
 *   fakeProxy.use(scriptedLLM({ hello: 'Hi from the fake!' }))
 *   await page.goto('/')
 *   // … the app's server calls the model at fakeProxyServer.url (or fakeProxy.url) …
 *   expect(fakeProxy).toHaveReceivedRequests(1)
 * })
 * @module
 */
import { expect as playwrightExpect, test as playwrightTest, type Expect, type ExpectMatcherState, type MatcherReturnType } from '@playwright/test'
import { matchers, type AgentDoublesMatchers } from '../matchers/index.js'
import { scriptedLLM as makeScriptedLLM } from './llm/index.js'
import { FakeProxy, type FakeProxyOptions, type ProxyLane } from './server/fake-proxy.js'

/** The per-test fixtures `test` adds. */
export interface AgentDoublesTestFixtures {
  /**
   * This test's lane of the worker's FakeProxy, named after the test: script it with
   * `fakeProxy.use(…)`, point clients at `fakeProxy.url`, and read `fakeProxy.requests`. A
   * request to the worker proxy's root URL that names no lane reaches it while it is the only
   * running test of the worker (Playwright runs one test at a time per worker), so an app server
   * pointed at {@link AgentDoublesWorkerFixtures.fakeProxyServer}'s URL reaches the running test.
   * Closed when the test ends.
   */
  fakeProxy: ProxyLane
  /** `scriptedLLM(…)` of the main entry: a script for `fakeProxy.use()`. */
  scriptedLLM: typeof makeScriptedLLM
}

/** The worker-scoped fixtures `test` adds. */
export interface AgentDoublesWorkerFixtures {
  /**
   * The options the worker's FakeProxy is made with (`controlApi` is on unless set to false).
   * Set them in `playwright.config.ts` (`use: { fakeProxyOptions: { … } }`) or with
   * `test.use({ fakeProxyOptions: { … } })` at the top of a file.
   */
  fakeProxyOptions: FakeProxyOptions
  /**
   * The worker's FakeProxy, started on first use and closed when the worker ends: hand its URL
   * (or `fakeProxyServer.url + '/v1'` for OpenAI clients) to the app server this worker starts.
   */
  fakeProxyServer: FakeProxy
}

/** The titles of a test, file left out: `describe > test`. */
function testName(titlePath: readonly string[]): string {
  return titlePath.slice(1).join(' > ') || titlePath.join(' > ')
}

/**
 * Playwright Test's `test`, extended with `fakeProxy` (a lane per test), `scriptedLLM`, and the
 * worker-scoped `fakeProxyServer` and `fakeProxyOptions`.
 */
export const test = playwrightTest.extend<AgentDoublesTestFixtures, AgentDoublesWorkerFixtures>({
  fakeProxyOptions: [{}, { scope: 'worker', option: true }],
  fakeProxyServer: [
    async ({ fakeProxyOptions }, use) => {
      const proxy = await new FakeProxy({ controlApi: true, ...fakeProxyOptions }).start()
      try {
        await use(proxy)
      } finally {
        await proxy.close()
      }
    },
    { scope: 'worker' },
  ],
  fakeProxy: async ({ fakeProxyServer }, use, testInfo) => {
    // A test lane: requests to the root that name no lane come to it while it runs.
    const lane = fakeProxyServer.lane(testName(testInfo.titlePath), { test: true })
    try {
      await use(lane)
    } finally {
      await lane.close()
    }
  },
  scriptedLLM: async ({}, use) => use(makeScriptedLLM),
})

/**
 * The matchers whose names Playwright's own assertions use: Playwright's win (`toHaveText` on a
 * locator is what a page test means); for an Envelope, `expect(envelope.text()).toBe(…)`.
 */
const PLAYWRIGHT_OWNS = ['toHaveText'] as const

/**
 * Deep equality as the matchers need it (request subsets, tool arguments), asymmetric matchers
 * (`expect.any(String)`, `expect.stringContaining(…)`) included. Playwright's matcher context
 * has `isNot`, `promise` and `utils` like Jest's, but its `equals` only throws.
 */
export function deepEquals(a: unknown, b: unknown): boolean {
  const asymmetric = (value: unknown): value is { asymmetricMatch(other: unknown): boolean } =>
    typeof value === 'object' && value !== null && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
  if (asymmetric(b)) return b.asymmetricMatch(a)
  if (asymmetric(a)) return a.asymmetricMatch(b)
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime()
  if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b)
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const keys = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined)
  const others = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined)
  if (keys.length !== others.length) return false
  return keys.every((key) => Object.hasOwn(b, key) && deepEquals((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
}

/** `matcher`, called with Playwright's context plus a working `equals`. */
function withEquals(matcher: (this: unknown, ...args: unknown[]) => unknown) {
  return function (this: object, ...args: unknown[]) {
    return matcher.apply({ ...this, customTesters: [], equals: deepEquals }, args)
  }
}

/** The agent-doubles matchers as Playwright's `expect.extend` types them (arguments kept). */
export type PlaywrightAgentDoublesMatchers = {
  [K in Exclude<keyof AgentDoublesMatchers, (typeof PLAYWRIGHT_OWNS)[number]>]: (
    this: ExpectMatcherState,
    received: unknown,
    ...args: Parameters<AgentDoublesMatchers[K]>
  ) => MatcherReturnType
}

/**
 * Playwright Test's `expect` with the agent-doubles matchers (`toHaveReceivedRequests`,
 * `toHaveCalledToolsInOrder`, …). Playwright's matcher context carries what they read
 * (`isNot`, `utils`, `equals`): it is the same `expect` engine as Jest's.
 */
export const expect: Expect<PlaywrightAgentDoublesMatchers> = playwrightExpect.extend(
  Object.fromEntries(
    Object.entries(matchers)
      .filter(([name]) => !(PLAYWRIGHT_OWNS as readonly string[]).includes(name))
      .map(([name, matcher]) => [name, withEquals(matcher as (this: unknown, ...args: unknown[]) => unknown)]),
  ) as unknown as PlaywrightAgentDoublesMatchers,
) as Expect<PlaywrightAgentDoublesMatchers>

export { FakeProxy, ProxyLane } from './server/fake-proxy.js'
export type { FakeProxyOptions } from './server/fake-proxy.js'
