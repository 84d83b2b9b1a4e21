/**
 * Matchers on the model requests a `FakeProxy` or `ScriptedLLM` recorded.
 * @module
 */
import { argumentError } from '../src/internal/describe.js'
import type { ModelRequest } from '../src/llm/types.js'
import type { FakeRequest } from '../src/server/types.js'
import { requireKind, type MatcherOutcome, type PortableMatcherContext } from './context.js'
import { diffOf, footer, hint, marker, ordinal, receivedList, sections } from './format.js'
import { showExpected, showReceived } from './inline.js'
import { describeFakeRequest, taskOf, type FakeProxyRecord, type ScriptedLLMRecord } from './records.js'
import { matchesSubset, projectOnto } from './subset.js'

const ACCEPTED = ['FakeProxy', 'ScriptedLLM'] as const

/** What each double records per request: a `FakeRequest` for a proxy, a `ModelRequest` for a model. */
type RecordedRequest = FakeRequest | ModelRequest

function readRequests(matcherName: string, received: unknown): { kind: (typeof ACCEPTED)[number]; requests: RecordedRequest[] } {
  const kind = requireKind(matcherName, received, ACCEPTED)
  const requests =
    kind === 'FakeProxy' ? [...(received as FakeProxyRecord).requests] : [...(received as ScriptedLLMRecord).requests]
  return { kind, requests }
}

function describeRequest(ctx: PortableMatcherContext, kind: string, request: RecordedRequest): string {
  if (kind === 'FakeProxy') {
    const fake = request as FakeRequest
    return `${describeFakeRequest(fake)}, task ${showReceived(ctx, taskOf(fake.request))}`
  }
  const model = request as ModelRequest
  return `model ${JSON.stringify(model.model)}, task ${showReceived(ctx, taskOf(model))}`
}

function listRequests(ctx: PortableMatcherContext, kind: string, requests: RecordedRequest[], highlight?: (i: number) => boolean): string {
  return receivedList(
    'Received',
    requests,
    (index) => `${marker(highlight, index)}${ordinal(index + 1)} request`,
    (request) => describeRequest(ctx, kind, request),
  )
}

/**
 * Passes when some recorded request matches `partial` as an object subset (a `FakeRequest` for
 * a FakeProxy, a `ModelRequest` for a ScriptedLLM); asymmetric matchers are allowed at any depth.
 * @example
 * expect(proxy).toHaveReceivedRequest({ agent: 'researcher', model: 'gpt-5' })
 */
export function toHaveReceivedRequest(this: PortableMatcherContext, received: unknown, partial: unknown): MatcherOutcome {
  const { kind, requests } = readRequests('toHaveReceivedRequest', received)
  const matches = (request: RecordedRequest) => matchesSubset(this, request, partial)
  const pass = requests.some(matches)
  return {
    pass,
    message: () =>
      sections(
        hint(this, 'toHaveReceivedRequest'),
        `Expected: ${this.isNot ? 'no' : 'a'} request matching ${showExpected(this, partial)}`,
        // With one request the diff says exactly which fields differ; with more it would be noise.
        !pass && requests.length === 1 && diffOf(this, partial, projectOnto(requests[0], partial)),
        listRequests(this, kind, requests, pass ? (i) => matches(requests[i]) : undefined),
        footer('requests', requests.length),
      ),
  }
}

/**
 * Passes when exactly `n` requests were recorded.
 * @example
 * expect(llm).toHaveReceivedRequests(2)
 * @throws {TypeError} when `n` is not a non-negative integer.
 */
export function toHaveReceivedRequests(this: PortableMatcherContext, received: unknown, n: unknown): MatcherOutcome {
  if (!Number.isInteger(n) || (n as number) < 0) {
    throw argumentError('toHaveReceivedRequests', 'n', 'a non-negative integer (the exact number of requests)', n)
  }
  const { kind, requests } = readRequests('toHaveReceivedRequests', received)
  const pass = requests.length === n
  return {
    pass,
    message: () =>
      sections(
        hint(this, 'toHaveReceivedRequests'),
        `Expected number of requests: ${this.isNot ? 'not ' : ''}${showExpected(this, n)}\nReceived number of requests: ${showReceived(this, requests.length)}`,
        listRequests(this, kind, requests),
      ),
  }
}
