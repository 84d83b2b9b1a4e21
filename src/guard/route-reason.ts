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

/** The key of a route's `(origin, path) => boolean`: `true` when the route leaves such a request alone. */
export const ROUTE_PASSES = Symbol.for('agent-doubles.route-passes')

/**
 * `route`, which also says at once, from a request's origin and path, that it leaves the request
 * alone (`passes` must answer `true` only where `route` returns `undefined`, and only for hosts
 * that are no provider's).
 */
export function withQuickPass<T extends Route>(route: T, passes: (origin: string, path: string) => boolean): T {
  Object.defineProperty(route, ROUTE_PASSES, { value: passes })
  return route
}

/** Whether `route` says at once that it leaves a request to `origin` + `path` alone. */
export function routePasses(route: Route, origin: string, path: string): boolean {
  const passes = (route as unknown as Record<symbol, ((origin: string, path: string) => boolean) | undefined>)[ROUTE_PASSES]
  return passes !== undefined && passes(origin, path)
}
