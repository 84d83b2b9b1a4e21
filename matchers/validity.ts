/**
 * `toHaveSentValidRequests`: no model request the FakeProxy (or lane) recorded was rejected by
 * its request validation (SPEC §10.3).
 * @module
 */
import type { FakeRequest } from '../src/server/types.js'
import { requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { footer, hint, ordinal, plural, receivedList, sections } from './format.js'
import { describeFakeRequest, type FakeProxyRecord } from './records.js'

const NAME = 'toHaveSentValidRequests'

/** Whether validation rejected `request` (a provider error planned by the test has a `name`). */
export function wasRejected(request: FakeRequest): boolean {
  return request.error !== undefined && request.error.name === undefined && (request.status === 400 || request.status === 422)
}

function reason(request: FakeRequest): string {
  const error = request.error
  if (!error) return ''
  const param = error.param ? ` (param ${JSON.stringify(error.param)})` : ''
  return `${request.status} ${error.message}${param}`
}

/**
 * Passes when no recorded request was rejected as invalid; else lists each rejected request
 * with the provider's reason.
 * @example
 * expect(proxy).toHaveSentValidRequests()
 * @throws {TypeError} when `received` is not a FakeProxy.
 */
export function toHaveSentValidRequests(this: PortableMatcherContext, received: unknown): MatcherOutcome {
  requireKind(NAME, received, ['FakeProxy'] as const)
  const requests = [...(received as FakeProxyRecord).requests]
  const rejected = requests.flatMap((request, index) => (wasRejected(request) ? [{ request, index }] : []))
  const pass = rejected.length === 0
  return {
    pass,
    message: () =>
      sections(
        hint(this, NAME, ''),
        this.isNot
          ? 'Expected: some request rejected by validation'
          : `Expected: every request valid, but validation rejected ${plural(rejected.length, 'request')}`,
        receivedList(
          'Rejected requests',
          rejected,
          (n) => `${ordinal(rejected[n].index + 1)} request`,
          ({ request }) => `${describeFakeRequest(request)}\n      ${reason(request)}`,
        ),
        footer('requests', requests.length),
      ),
  }
}
