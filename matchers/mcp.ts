/**
 * Matchers on a FakeMcpServer's recorded `tools/call`s: whether a tool was called (with
 * arguments matching a subset), and how many times.
 * @module
 */
import { argumentError } from '../src/internal/describe.js'
import type { McpCall } from '../src/mcp/types.js'
import { isAsymmetric, requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { footer, hint, marker, ordinal, plural, receivedList, sections } from './format.js'
import { inline, showExpected } from './inline.js'
import { matchesSubset } from './subset.js'

/** The fields of a FakeMcpServer the matchers read. */
interface FakeMcpServerRecord {
  calls: McpCall[]
}

function readCalls(matcherName: string, received: unknown, name: unknown): McpCall[] {
  if (typeof name !== 'string' && !isAsymmetric(name)) throw argumentError(matcherName, 'name', 'a tool name (a string)', name)
  requireKind(matcherName, received, ['FakeMcpServer'])
  return (received as FakeMcpServerRecord).calls
}

function listCalls(calls: McpCall[], marked: (index: number) => boolean): string {
  return receivedList(
    'Received calls',
    calls,
    (index) => `${marker(marked, index)}${ordinal(index + 1)} call`,
    (call) => `${call.tool}(${inline(call.args)})${call.error ? ` → error: ${call.error.message}` : ''}`,
  )
}

/**
 * Passes when the FakeMcpServer received a `tools/call` of tool `name` (with `args` as an object
 * subset, asymmetric matchers allowed, when given).
 * @example
 * expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
 * @throws {TypeError} `name` is not a string, or the received value is not a FakeMcpServer.
 */
export function toHaveCalledMcpTool(this: PortableMatcherContext, received: unknown, name: unknown, args?: unknown): MatcherOutcome {
  const matcherName = 'toHaveCalledMcpTool'
  const calls = readCalls(matcherName, received, name)
  const matches = (call: McpCall) =>
    this.equals(call.tool, name, this.customTesters) && (args === undefined || matchesSubset(this, call.args, args))
  const pass = calls.some(matches)
  return {
    pass,
    message: () =>
      sections(
        hint(this, matcherName, 'name', args === undefined ? undefined : 'args'),
        `Expected: ${this.isNot ? 'no' : 'a'} call of ${showExpected(this, name)}${args === undefined ? '' : ` with ${showExpected(this, args)}`}`,
        listCalls(calls, (index) => matches(calls[index])),
        footer('calls', calls.length),
      ),
  }
}

/**
 * Passes when the FakeMcpServer received exactly `n` `tools/call`s of tool `name`.
 * @example
 * expect(mcp).toHaveCalledMcpToolTimes('get_weather', 2)
 * @throws {TypeError} `n` is not a non-negative integer, `name` is not a string, or the received
 * value is not a FakeMcpServer.
 */
export function toHaveCalledMcpToolTimes(this: PortableMatcherContext, received: unknown, name: unknown, n: unknown): MatcherOutcome {
  const matcherName = 'toHaveCalledMcpToolTimes'
  if (!Number.isInteger(n) || (n as number) < 0) throw argumentError(matcherName, 'n', 'a non-negative integer', n)
  const calls = readCalls(matcherName, received, name)
  const counts = (call: McpCall) => this.equals(call.tool, name, this.customTesters)
  const count = calls.filter(counts).length
  return {
    pass: count === n,
    message: () =>
      sections(
        hint(this, matcherName, 'name', 'n'),
        `Expected: ${this.isNot ? 'not ' : ''}${plural(n as number, 'call')} of ${showExpected(this, name)}`,
        `Matching calls: ${count}`,
        listCalls(calls, (index) => counts(calls[index])),
        footer('calls', calls.length),
      ),
  }
}
