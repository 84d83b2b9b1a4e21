/**
 * `toHaveSentValidRequests`: no model request the FakeProxy (or lane) recorded was rejected by
 * its request validation (SPEC §10.3).
 * @module
 */
import type { FakeRequest } from '../src/server/types.js'
import { requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { footer, hint, ordinal, plural, receivedList, sections } from './format.js'
import { describeFakeRequest, proxyRecords, type SideOption } from './records.js'
import { checkOptions, is } from '../src/internal/describe.js'

const NAME = 'toHaveSentValidRequests'

/** Whether validation rejected `request` (a provider error planned by the test has a `name`). */
export function wasRejected(request: FakeRequest): boolean {
  // A failing brain's 400 (type brain_error, SPEC §17) is the test's own double failing, not a rejection.
  return request.error !== undefined && request.error.name === undefined && request.error.type !== 'brain_error' && (request.status === 400 || request.status === 422)
}

function reason(request: FakeRequest): string {
  const error = request.error
  if (!error) return ''
  const param = error.param ? ` (param ${JSON.stringify(error.param)})` : ''
  return `${request.status} ${error.message}${param}`
}

/**
 * Passes when no recorded request was rejected as invalid; else lists each rejected request
 * with the provider's reason. Side requests (SPEC §17) are checked only with `{ includeSide: true }`.
 * @example
 * expect(proxy).toHaveSentValidRequests()
 * expect(lane).toHaveSentValidRequests({ includeSide: true })
 * @throws {TypeError} when `received` is not a FakeProxy, or an option is unknown.
 */
export function toHaveSentValidRequests(this: PortableMatcherContext, received: unknown, options?: unknown): MatcherOutcome {
  requireKind(NAME, received, ['FakeProxy'] as const)
  checkOptions(NAME, options, { includeSide: ['a boolean', is.boolean] })
  const requests = proxyRecords(received, (options as SideOption | undefined)?.includeSide ?? false)
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
