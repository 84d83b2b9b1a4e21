/**
 * What the network guard decided for one outgoing request, as every hook (undici's dispatcher,
 * `node:http`, a foreign realm's `fetch`) receives it. The hooks only carry the decision out.
 * @module
 */

/** Send the request as it is; route it to `url` instead; or fail it with `error`, sending nothing. */
export type Decision = { action: 'pass' } | { action: 'route'; url: URL } | { action: 'refuse'; error: Error }

/**
 * Decides for a request to `url`. Called synchronously, in the caller's async context, once per
 * request; it never throws (a failing route becomes a refusal).
 */
export type Decide = (url: URL, method: string) => Decision

/** The decision that leaves a request alone. */
export const PASS: Decision = Object.freeze({ action: 'pass' })
