/**
 * Lanes (SPEC §9): one server, many isolated fakes. A lane's routes answer under
 * `/~<id>`; this table finds the lane a request names, strips the prefix, and decides where a
 * request that names no lane goes — to the only running test's lane, or nowhere (409) when
 * several tests run and the caller could be any of them, or when the fixtures' file server has
 * no test running at all.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { utf8Length } from '../internal/bytes.js'
import { inputErrorBody } from '../wire/dialect.js'
import { CONTROL_PREFIX } from './control-api.js'
import type { ProxyState } from './handle-request.js'
import { errorStyleFor, findRoute } from '../wire/dialects.js'
import { freshRequestId, withRequestId } from '../wire/anthropic-messages/errors.js'

/** One open lane, as the server sees it. */
export interface LaneEntry {
  readonly id: string
  readonly name: string
  readonly state: ProxyState
  /** A lane the fixtures made for a running test: lane-less requests may be meant for it. */
  readonly test: boolean
}

/** Where one request goes. */
export type LaneChoice =
  | { kind: 'lane'; state: ProxyState; url: string }
  | { kind: 'closed'; id: string; name: string | undefined; url: string }
  | { kind: 'ambiguous'; tests: readonly string[]; url: string }
  | { kind: 'idle'; url: string }

/** `/~<id>` and what follows it (a path, a query, or nothing). */
const LANE_PREFIX = /^\/~([^/?]*)(.*)$/s

/** Closed lanes remembered by name, so a late request is told which lane it missed. */
const REMEMBERED_CLOSED = 1_000

/** The open lanes of one proxy, by id. */
export class LaneTable {
  readonly #open = new Map<string, LaneEntry>()
  readonly #closed = new Map<string, string>()
  /**
   * The remembered closed ids in a ring, oldest at `#oldest`: evicting by a known key keeps
   * `remove` constant-time, where taking a Map's first key walks the holes its deletions left
   * (after 1,000 tests, a few µs on every close).
   */
  readonly #closedOrder: string[] = []
  #oldest = 0
  #tests = 0
  #next = 0
  #refusesIdleRoot = false

  /**
   * From now on a request that names no lane while no test lane is open is refused, not served
   * by the proxy itself: the fixtures' file server, whose base URLs stay pointed at its root for
   * the whole file, must not answer a request made between tests or by a test without a lane.
   */
  refuseIdleRoot(): void {
    this.#refusesIdleRoot = true
  }

  /** A fresh lane id: short, URL-safe, never reused by this proxy. */
  nextId(): string {
    return (++this.#next).toString(36)
  }

  add(entry: LaneEntry): void {
    this.#open.set(entry.id, entry)
    if (entry.test) this.#tests++
  }

  remove(id: string): void {
    const entry = this.#open.get(id)
    if (!entry) return
    this.#open.delete(id)
    if (entry.test) this.#tests--
    this.#closed.set(id, entry.name)
    if (this.#closedOrder.length < REMEMBERED_CLOSED) {
      this.#closedOrder.push(id)
      return
    }
    this.#closed.delete(this.#closedOrder[this.#oldest]!)
    this.#closedOrder[this.#oldest] = id
    this.#oldest = (this.#oldest + 1) % REMEMBERED_CLOSED
  }

  isOpen(id: string): boolean {
    return this.#open.has(id)
  }

  /** The open lanes, oldest first. */
  entries(): IterableIterator<LaneEntry> {
    return this.#open.values()
  }

  /** The test lanes open now. */
  runningTests(): LaneEntry[] {
    if (this.#tests === 0) return []
    return [...this.#open.values()].filter((entry) => entry.test)
  }

  /**
   * The lane `url` names (`/~<id>/…`, the prefix stripped from the returned `url`), else the
   * one the `x-agent-doubles-lane` header names (`header`: an id, `~<id>` or a name, SPEC §17);
   * for a request naming none, the only running test's lane, else `root` when no test lane is open.
   */
  choose(url: string, root: ProxyState, header?: string): LaneChoice {
    const named = LANE_PREFIX.exec(url)
    if (named) {
      const [, id = '', tail = ''] = named
      const rest = tail.startsWith('/') ? tail : `/${tail}`
      const entry = this.#open.get(id)
      if (entry) return { kind: 'lane', state: entry.state, url: rest }
      return { kind: 'closed', id, name: this.#closed.get(id), url: rest }
    }
    if (header !== undefined) return this.#byHeader(header, url)
    // The control API is the proxy's own, whether or not a test runs.
    if (this.#tests === 0) return this.#refusesIdleRoot && !url.startsWith(CONTROL_PREFIX) ? { kind: 'idle', url } : { kind: 'lane', state: root, url }
    const tests = this.runningTests()
    if (tests.length === 1) return { kind: 'lane', state: tests[0]!.state, url }
    return { kind: 'ambiguous', tests: tests.map((entry) => entry.name), url }
  }

  /** The lane an `x-agent-doubles-lane` header names: by id (`3` or `~3`), else by name. */
  #byHeader(value: string, url: string): LaneChoice {
    const id = value.startsWith('~') ? value.slice(1) : value
    const entry = this.#open.get(id) ?? [...this.#open.values()].find((open) => open.name === value)
    if (entry) return { kind: 'lane', state: entry.state, url }
    const closedName = this.#closed.get(id)
    if (closedName !== undefined) return { kind: 'closed', id, name: closedName, url }
    return { kind: 'closed', id: value, name: undefined, url }
  }
}

/** The header that names a lane, for clients that can add headers but not change paths (SPEC §17). */
export const LANE_HEADER = 'x-agent-doubles-lane'

/** The lane a request's `x-agent-doubles-lane` header names, if it carries one. */
export function laneHeaderOf(req: IncomingMessage): string | undefined {
  const value = req.headers[LANE_HEADER]
  const text = Array.isArray(value) ? value[0] : value
  return text === undefined || text === '' ? undefined : text
}

/**
 * Answers a request that reached no lane, in the error shape of the route it was meant for,
 * with `x-should-retry: false`: retrying cannot make a closed lane open or a shared base URL
 * name one test.
 */
export function answerNoLane(req: IncomingMessage, res: ServerResponse, choice: Exclude<LaneChoice, { kind: 'lane' }>): { status: number; message: string } {
  req.resume()
  const path = pathOf(choice.url)
  const style = findRoute(path)?.dialect.errorStyle ?? errorStyleFor(path, req.headers)
  const { status, message } = noLaneAnswer(choice, 'request')
  // Anthropic's bodies carry the request id its `request-id` header gives (SPEC §21).
  const requestId = style === 'anthropic' ? freshRequestId() : undefined
  const body = inputErrorBody(style === 'local' ? 'openai' : style, status, message)
  const text = JSON.stringify(requestId ? withRequestId(body, requestId) : body)
  if (res.headersSent || res.destroyed) return { status, message }
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(utf8Length(text)), 'x-should-retry': 'false', ...(requestId && { 'request-id': requestId }) })
  res.end(text)
  return { status, message }
}

/** The status and message of a request or WebSocket upgrade that reached no lane. */
export function noLaneAnswer(choice: Exclude<LaneChoice, { kind: 'lane' }>, what: 'request' | 'WebSocket'): { status: number; message: string } {
  switch (choice.kind) {
    case 'closed': {
      const lane = choice.name === undefined ? `~${choice.id}` : `"${choice.name}" (~${choice.id})`
      return { status: 404, message: `[agent-doubles] FakeProxy lane ${lane} is closed${choice.name === undefined ? ' or never existed' : ''}; a lane lives as long as the test that took it` }
    }
    case 'ambiguous':
      return {
        status: 409,
        message: `[agent-doubles] FakeProxy: this ${what} names no lane and ${choice.tests.length} tests are running (${choice.tests.map((name) => JSON.stringify(name)).join(', ')}), so it could be any of theirs; build the client from fakeProxy.url (the test's own lane) instead of the environment's base URL`,
      }
    case 'idle':
      return {
        status: 409,
        message: `[agent-doubles] FakeProxy: this ${what} names no lane and no test that takes the fakeProxy fixture is running — it was made between tests, after its test ended, or by a test that does not take fakeProxy (the environment's base URLs name this file's server for the whole file); take the fakeProxy fixture in the test that makes it`,
      }
  }
}

function pathOf(url: string): string {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}
