/**
 * Matchers on an `Envelope`: its text, its error, its token and cost totals.
 * @module
 */
import { isAsymmetric, isEnvelope, unsupportedReceived, type EnvelopeLike, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { diffOf, hint, sections } from './format.js'
import { showExpected, showReceived } from './inline.js'
import { matchesSubset, projectOnto } from './subset.js'

const ENVELOPE = 'an Envelope (what a MockAgent returns)'

function requireEnvelope(matcherName: string, received: unknown): EnvelopeLike {
  if (isEnvelope(received)) return received
  throw unsupportedReceived(matcherName, ENVELOPE, received)
}

function describeEnvelope(ctx: PortableMatcherContext, envelope: EnvelopeLike): string {
  const error = envelope.error
  return error
    ? `Received error: ${showReceived(ctx, { type: error.type, message: error.message, retryable: error.retryable })}`
    : `Received payload: ${showReceived(ctx, envelope.payload)}`
}

/**
 * Passes when `envelope.text()` equals `text`.
 * @example
 * expect(await researcher('weather today')).toHaveText('sunny')
 */
export function toHaveText(this: PortableMatcherContext, received: unknown, text: unknown): MatcherOutcome {
  const envelope = requireEnvelope('toHaveText', received)
  const actual = envelope.text()
  const pass = this.equals(actual, text, this.customTesters)
  return {
    pass,
    message: () =>
      sections(
        hint(this, 'toHaveText'),
        `Expected text: ${this.isNot ? 'not ' : ''}${showExpected(this, text)}\nReceived text: ${showReceived(this, actual)}`,
        !pass && typeof text === 'string' && !isAsymmetric(text) && diffOf(this, text, actual),
        `Task: ${showReceived(this, envelope.task)}`,
      ),
  }
}

/**
 * Passes when the envelope carries an `ErrorInfo` (matching `partial`, an object subset, when given).
 * @example
 * expect(env).toBeErrorEnvelope({ type: 'RateLimit', retryable: true })
 */
export function toBeErrorEnvelope(this: PortableMatcherContext, received: unknown, partial?: unknown): MatcherOutcome {
  const envelope = requireEnvelope('toBeErrorEnvelope', received)
  const error = envelope.error
  const hasPartial = partial !== undefined
  const pass = error !== undefined && (!hasPartial || matchesSubset(this, error, partial))
  return {
    pass,
    message: () => {
      const expected = hasPartial
        ? `Expected: ${this.isNot ? 'not ' : ''}an error envelope matching ${showExpected(this, partial)}`
        : `Expected: ${this.isNot ? 'not ' : ''}an error envelope`
      return sections(
        hint(this, 'toBeErrorEnvelope', hasPartial ? 'expected' : ''),
        expected,
        describeEnvelope(this, envelope),
        error !== undefined && hasPartial && !pass && diffOf(this, partial, projectOnto(error, partial)),
      )
    },
  }
}

/**
 * Passes when `envelope.metadata.totals()` (direct plus nested usage) matches `partial`.
 * @example
 * expect(env).toHaveUsage({ inputTokens: 50, outputTokens: 30 })
 */
export function toHaveUsage(this: PortableMatcherContext, received: unknown, partial: unknown): MatcherOutcome {
  const envelope = requireEnvelope('toHaveUsage', received)
  const totals = envelope.metadata.totals()
  const pass = matchesSubset(this, totals, partial)
  return {
    pass,
    message: () =>
      sections(
        hint(this, 'toHaveUsage'),
        `Expected totals: ${this.isNot ? 'not ' : ''}${showExpected(this, partial)}\nReceived totals: ${showReceived(this, totals)}`,
        !pass && diffOf(this, partial, projectOnto(totals, partial)),
      ),
  }
}
