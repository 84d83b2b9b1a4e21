/**
 * Why a route gave no target. A route's public contract is `(url) => string | undefined`; the
 * fixtures' route also tells the guard, under a symbol, why a provider request got no target,
 * so the guard's message can say what is true: no fake proxy is active in this test, rather
 * than "the fake serves no such API" (SPEC §22).
 * @module
 */

/** The reasons a route knows. */
export type NoTargetReason = 'no-active-proxy' | 'unserved'

/** The key of a route's `(url) => NoTargetReason | undefined`. */
export const NO_TARGET_REASON = Symbol.for('agent-doubles.route-no-target-reason')

type Route = (url: URL) => string | undefined

/** `route`, which answers `reason(url)` when asked why it gave no target. */
export function withNoTargetReason<T extends Route>(route: T, reason: (url: URL) => NoTargetReason | undefined): T {
  Object.defineProperty(route, NO_TARGET_REASON, { value: reason })
  return route
}

/** Why `route` gave no target for `url`, when it says. */
export function noTargetReason(route: Route, url: URL): NoTargetReason | undefined {
  const reason = (route as unknown as Record<symbol, ((url: URL) => NoTargetReason | undefined) | undefined>)[NO_TARGET_REASON]
  return reason?.(url)
}
