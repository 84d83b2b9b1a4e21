/**
 * Matchers on the tasks a double was called with: any call, the last call, the n-th call.
 * A MockAgent's task is the task it ran; a model double's task is the text of the last user
 * message of each request.
 * @module
 */
import { argumentError } from '../src/internal/describe.js'
import type { DoubleKind } from '../src/kinds.js'
import { isAsymmetric, requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { diffOf, footer, hint, marker, ordinal, receivedList, sections } from './format.js'
import { showExpected, showReceived } from './inline.js'
import { callNoun, recordedTasks, type TaskEntry } from './records.js'

const ACCEPTED: readonly DoubleKind[] = ['MockAgent', 'ScriptedLLM', 'FakeProxy']

interface Recorded {
  noun: string
  entries: TaskEntry[]
}

function readTasks(matcherName: string, received: unknown): Recorded {
  const kind = requireKind(matcherName, received, ACCEPTED)
  return { noun: callNoun(kind, received), entries: recordedTasks(kind, received) }
}

function listTasks(ctx: PortableMatcherContext, recorded: Recorded, highlight?: (index: number) => boolean): string {
  return receivedList(
    'Received',
    recorded.entries,
    (index) => `${marker(highlight, index)}${ordinal(index + 1)} ${recorded.noun}`,
    (entry) => `${showReceived(ctx, entry.task)}${entry.detail ? ` (${entry.detail})` : ''}`,
  )
}

function countFooter(recorded: Recorded): string {
  return footer(recorded.noun === 'request' ? 'requests' : 'calls', recorded.entries.length)
}

/**
 * Passes when some call's task equals `task` (asymmetric matchers allowed).
 * @example
 * expect(researcher).toHaveBeenCalledWithTask('weather today')
 */
export function toHaveBeenCalledWithTask(this: PortableMatcherContext, received: unknown, task: unknown): MatcherOutcome {
  const name = 'toHaveBeenCalledWithTask'
  const recorded = readTasks(name, received)
  const matches = (entry: TaskEntry) => this.equals(entry.task, task, this.customTesters)
  const pass = recorded.entries.some(matches)
  return {
    pass,
    message: () =>
      sections(
        hint(this, name),
        `Expected task: ${this.isNot ? 'not ' : ''}${showExpected(this, task)}`,
        listTasks(this, recorded, pass ? (index) => matches(recorded.entries[index]) : undefined),
        countFooter(recorded),
      ),
  }
}

/**
 * Passes when the last call's task equals `task`.
 * @example
 * expect(llm).toHaveBeenLastCalledWithTask('summarise the report')
 */
export function toHaveBeenLastCalledWithTask(
  this: PortableMatcherContext,
  received: unknown,
  task: unknown,
): MatcherOutcome {
  const recorded = readTasks('toHaveBeenLastCalledWithTask', received)
  return compareOne(this, 'toHaveBeenLastCalledWithTask', recorded, recorded.entries.length - 1, task)
}

/**
 * Passes when the n-th call's (1-based) task equals `task`.
 * @example
 * expect(researcher).toHaveBeenNthCalledWithTask(2, 'market outlook')
 * @throws {TypeError} when `n` is not a positive integer.
 */
export function toHaveBeenNthCalledWithTask(
  this: PortableMatcherContext,
  received: unknown,
  n: unknown,
  task: unknown,
): MatcherOutcome {
  const name = 'toHaveBeenNthCalledWithTask'
  if (!Number.isInteger(n) || (n as number) < 1) {
    throw argumentError(
      name,
      'n',
      'a positive integer (n is 1-based; use toHaveBeenLastCalledWithTask for the last call)',
      n,
    )
  }
  const recorded = readTasks(name, received)
  return compareOne(this, name, recorded, (n as number) - 1, task, 'n')
}

function compareOne(
  ctx: PortableMatcherContext,
  name: string,
  recorded: Recorded,
  index: number,
  task: unknown,
  nArgument?: string,
): MatcherOutcome {
  const entry = index >= 0 ? recorded.entries[index] : undefined
  const pass = entry !== undefined && ctx.equals(entry.task, task, ctx.customTesters)
  const which = nArgument ? `${ordinal(index + 1)} ${recorded.noun}` : `last ${recorded.noun}`
  const expectedArg = nArgument ? 'n, expected' : 'expected'
  return {
    pass,
    message: () => {
      const missing =
        entry === undefined &&
        (recorded.entries.length === 0
          ? `No ${recorded.noun} was recorded.`
          : `There is no ${which}: only ${recorded.entries.length} recorded.`)
      const diff =
        entry !== undefined && !pass && typeof task === 'string' && !isAsymmetric(task)
          ? diffOf(ctx, task, entry.task)
          : undefined
      return sections(
        hint(ctx, name, expectedArg),
        `Expected task of the ${which}: ${ctx.isNot ? 'not ' : ''}${showExpected(ctx, task)}`,
        missing,
        diff,
        listTasks(ctx, recorded, (i) => i === index),
        countFooter(recorded),
      )
    },
  }
}
