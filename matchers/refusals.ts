/**
 * `toHaveRefusedWith`: on a `FakeProxy`, the refusals it recorded; on an error thrown by a
 * client, the proxy's mark it carries.
 * @module
 */
import { argumentError, checkOptions, is } from '../src/internal/describe.js'
import { kindOf } from '../src/kinds.js'
import { proxyError } from '../src/gateway/proxy-error.js'
import { isRefusalCode, refusalCodes } from '../src/gateway/refusal-codes.js'
import type { Refusal } from '../src/server/types.js'
import { isAsymmetric, unsupportedReceived, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { footer, hint, marker, ordinal, plural, receivedList, sections } from './format.js'
import { showExpected, showReceived } from './inline.js'
import { describeFakeRequest, type FakeProxyRecord } from './records.js'

const NAME = 'toHaveRefusedWith'

/** Options of {@link toHaveRefusedWith}. */
export interface RefusedWithOptions {
  /** Pass only when exactly this many matching refusals were recorded (FakeProxy only). */
  times?: number
  /** Count only refusals of requests from this agent (FakeProxy only). */
  agent?: string
}

function checkCode(code: unknown): void {
  if (isAsymmetric(code) || isRefusalCode(code)) return
  throw argumentError(NAME, 'code', `one of the refusal codes (${Object.keys(refusalCodes).join(', ')})`, code)
}

/**
 * Passes when the proxy refused a request with `code` (exactly `times` times, from `agent`,
 * when given), or when the received error carries the proxy's mark with `code`.
 * @example
 * expect(proxy).toHaveRefusedWith('agent_unknown', { agent: 'intruder' })
 * await expect(client.chat.completions.create(body)).rejects.toHaveRefusedWith('rate_limited')
 * @throws {TypeError} on an unknown code, bad options, or a received value that is neither a
 * FakeProxy nor an error.
 */
export function toHaveRefusedWith(
  this: PortableMatcherContext,
  received: unknown,
  code: unknown,
  options?: RefusedWithOptions,
): MatcherOutcome {
  checkCode(code)
  checkOptions(NAME, options, {
    times: ['a non-negative integer', (v) => Number.isInteger(v) && (v as number) >= 0],
    agent: ['a string', is.string],
  })
  if (kindOf(received) === 'FakeProxy') return proxyRefusals(this, received as FakeProxyRecord, code, options ?? {})
  if (received instanceof Error || proxyError(received) !== undefined) {
    if (options?.times !== undefined || options?.agent !== undefined) {
      throw new TypeError(
        `[agent-doubles] ${NAME}: options times and agent apply to a FakeProxy; an error carries one refusal and no agent — drop them, or expect(proxy).${NAME}(…)`,
      )
    }
    return errorRefusal(this, received, code)
  }
  throw unsupportedReceived(NAME, 'a FakeProxy or an error thrown by a model client', received)
}

function proxyRefusals(
  ctx: PortableMatcherContext,
  proxy: FakeProxyRecord,
  code: unknown,
  options: RefusedWithOptions,
): MatcherOutcome {
  const refusals = [...proxy.refusals]
  const counts = (refusal: Refusal) =>
    ctx.equals(refusal.code, code, ctx.customTesters) &&
    (options.agent === undefined || refusal.request.agent === options.agent)
  const matching = refusals.filter(counts).length
  const pass = options.times === undefined ? matching > 0 : matching === options.times
  const qualifiers = [
    options.times !== undefined && `exactly ${plural(options.times, 'time')}`,
    options.agent !== undefined && `for agent ${JSON.stringify(options.agent)}`,
  ].filter(Boolean)
  return {
    pass,
    message: () =>
      sections(
        hint(ctx, NAME, 'code', Object.keys(options).length > 0 ? 'options' : undefined),
        `Expected: ${ctx.isNot ? 'not ' : ''}refused with ${showExpected(ctx, code)}${qualifiers.length ? ` ${qualifiers.join(' ')}` : ''}`,
        `Matching refusals: ${matching}`,
        receivedList(
          'Received refusals',
          refusals,
          (index) => `${marker((i) => counts(refusals[i]), index)}${ordinal(index + 1)} refusal`,
          (refusal) => `${showReceived(ctx, refusal.code)} (${refusal.status}) ${describeFakeRequest(refusal.request)}`,
        ),
        footer('refusals', refusals.length),
      ),
  }
}

function errorRefusal(ctx: PortableMatcherContext, received: unknown, code: unknown): MatcherOutcome {
  const refusal = proxyError(received)
  const pass = refusal !== undefined && ctx.equals(refusal.code, code, ctx.customTesters)
  return {
    pass,
    message: () => {
      const what = refusal
        ? `Received: a proxy refusal ${showReceived(ctx, refusal.code)} (${refusal.status}): ${refusal.message}${refusal.hint ? `\nHint: ${refusal.hint}` : ''}`
        : `Received: an error without the proxy's mark (no x-viper-error header): ${showReceived(ctx, errorLine(received))}`
      return sections(
        hint(ctx, NAME, 'code'),
        `Expected: ${ctx.isNot ? 'not ' : ''}an error refused by the proxy with ${showExpected(ctx, code)}`,
        what,
      )
    },
  }
}

function errorLine(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`
  return String(err)
}
