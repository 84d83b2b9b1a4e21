/**
 * `toHaveRegisteredDefinition`: the agent definitions a `FakeProxy` holds.
 * @module
 */
import { argumentError } from '../src/internal/describe.js'
import { requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { diffOf, footer, hint, sections } from './format.js'
import { showExpected, showReceived } from './inline.js'
import type { FakeProxyRecord } from './records.js'
import { matchesSubset, projectOnto } from './subset.js'

const NAME = 'toHaveRegisteredDefinition'

/**
 * Passes when `agent` has a registered definition (matching `partial`, an object subset, when given).
 * @example
 * expect(proxy).toHaveRegisteredDefinition('researcher', { model: 'gpt-5' })
 * @throws {TypeError} when `agent` is not a string or the received value is not a FakeProxy.
 */
export function toHaveRegisteredDefinition(
  this: PortableMatcherContext,
  received: unknown,
  agent: unknown,
  partial?: unknown,
): MatcherOutcome {
  if (typeof agent !== 'string') throw argumentError(NAME, 'agent', 'an agent name (a string)', agent)
  requireKind(NAME, received, ['FakeProxy'])
  const definitions = (received as FakeProxyRecord).definitions
  const registered = Object.keys(definitions)
  const definition = Object.hasOwn(definitions, agent) ? definitions[agent] : undefined
  const hasPartial = partial !== undefined
  const pass = definition !== undefined && (!hasPartial || matchesSubset(this, definition, partial))
  return {
    pass,
    message: () =>
      sections(
        hint(this, NAME, 'agent', hasPartial ? 'partial' : undefined),
        `Expected: ${this.isNot ? 'no ' : 'a '}definition registered for ${showExpected(this, agent)}${hasPartial ? ` matching ${showExpected(this, partial)}` : ''}`,
        definition === undefined
          ? `Received: no definition for ${JSON.stringify(agent)}; registered agents: ${registered.length ? registered.map((name) => JSON.stringify(name)).join(', ') : '(none)'}`
          : `Received definition: ${showReceived(this, definition)}`,
        definition !== undefined && hasPartial && !pass && diffOf(this, partial, projectOnto(definition, partial)),
        footer('registered definitions', registered.length),
      ),
  }
}
