/**
 * What the network guard decided for one outgoing request, as every hook (undici's dispatcher,
 * `node:http`, a foreign realm's `fetch`) receives it. The hooks only carry the decision out.
 * @module
 */

import type { GuardAnswer } from './answer.js'

/**
 * Send the request as it is; route it to `url` instead; or refuse it, sending nothing: with
 * `answer`, the hooks that can (undici's dispatcher, `node:http`) give the client that response
 * (one it does not retry); without it, or where they cannot, the request fails with `error`.
 */
export type Decision =
  | { action: 'pass' }
  | { action: 'route'; url: URL }
  | { action: 'refuse'; error: Error; answer?: GuardAnswer }

/**
 * Decides for a request to `url`. Called synchronously, in the caller's async context, once per
 * request; it never throws (a failing route becomes a refusal).
 */
export type Decide = (url: URL, method: string) => Decision

/** The decision that leaves a request alone. */
export const PASS: Decision = Object.freeze({ action: 'pass' })

/**
 * Where a `Decide` may carry a quick check, `(origin, path) => boolean`: `true` when a request to
 * that origin and path (a string origin with no trailing slash, a path with its query, no
 * separate `query`) would be passed as it is, so the hook sends it on without building its URL.
 * `false` says nothing: the request is decided as usual.
 */
export const QUICK_PASS = Symbol.for('agent-doubles.decide-quick-pass')

/** The quick check of {@link QUICK_PASS}. */
export type QuickPass = (origin: string, path: string) => boolean

/** Whether `decide` says at once that a request to `origin` + `path` passes. */
export function passesQuickly(decide: Decide, origin: string, path: string): boolean {
  const quick = (decide as unknown as Record<symbol, QuickPass | undefined>)[QUICK_PASS]
  return quick !== undefined && quick(origin, path)
}
