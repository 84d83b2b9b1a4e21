/**
 * Snapshot serializers (pretty-format plugins, as Vitest and Jest take them) that render the
 * doubles and their records as a readable conversation with volatile values masked, so
 * `toMatchSnapshot()` and `toMatchInlineSnapshot()` are stable across runs and diff by turn.
 * @module
 */
import { kindOf } from '../src/kinds.js'
import type { ModelRequest, ModelResponse } from '../src/llm/types.js'
import type { FakeRequest, Refusal } from '../src/server/types.js'
import {
  fakeRequestHeader,
  modelRequestHeader,
  proxyTurns,
  renderAgentCalls,
  renderRefusals,
  renderRequest,
  renderTurns,
  scriptedTurns,
  type AgentCallRecord,
} from '../src/render/conversation.js'
import { maskVolatile } from '../src/render/mask.js'

/** The part of pretty-format's config a serializer reads. */
interface PrintConfig {
  indent: string
}

/** A pretty-format plugin, the shape `expect.addSnapshotSerializer` and `snapshotSerializers` take. */
export interface SnapshotSerializer {
  test(value: unknown): boolean
  serialize(value: any, config: PrintConfig, indentation: string, depth: number, refs: unknown, printer: unknown): string
}

/** `title {` + body lines + `}`, indented to sit where pretty-format puts the value. */
function block(title: string, lines: string[], config: PrintConfig, indentation: string): string {
  const inner = indentation + config.indent
  const body = lines.map((line) => (line === '' ? '' : inner + line)).join('\n')
  return maskVolatile(lines.length ? `${title} {\n${body}\n${indentation}}` : `${title} {}`)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

function isModelRequest(value: unknown): value is ModelRequest {
  return isObject(value) && !kindOf(value) && typeof value.model === 'string' && Array.isArray(value.messages) && typeof value.stream === 'boolean'
}

function isFakeRequest(value: unknown): value is FakeRequest {
  return isObject(value) && typeof value.method === 'string' && typeof value.path === 'string' && typeof value.dialect === 'string' && isModelRequest(value.request)
}

/** The brand a `ProxyLane` carries (src/server/fake-proxy.ts), shared by both module copies. */
const LANE = Symbol.for('agent-doubles.proxy-lane')

/**
 * The brand the fixtures put on a test's own lane, which is named after the test: its snapshot
 * title leaves the name out, so renaming a test does not break its snapshots (SPEC §22).
 */
export const TEST_LANE = Symbol.for('agent-doubles.test-lane')

const fakeProxySerializer: SnapshotSerializer = {
  test: (value) => kindOf(value) === 'FakeProxy',
  serialize(proxy: { requests: FakeRequest[]; refusals: Refusal[]; name?: string; [LANE]?: boolean; [TEST_LANE]?: boolean }, config, indentation) {
    const lines = [...renderTurns(proxyTurns(proxy.requests)), ...renderRefusals(proxy.refusals)]
    const title = proxy[LANE] ? (proxy[TEST_LANE] ? 'ProxyLane' : `ProxyLane ${JSON.stringify(proxy.name)}`) : 'FakeProxy'
    return block(`${title} (${count(proxy.requests.length, 'request')})`, lines, config, indentation)
  },
}

const scriptedLLMSerializer: SnapshotSerializer = {
  test: (value) => kindOf(value) === 'ScriptedLLM',
  serialize(llm: { requests: ModelRequest[]; responses: Array<ModelResponse | undefined> }, config, indentation) {
    return block(`ScriptedLLM (${count(llm.requests.length, 'request')})`, renderTurns(scriptedTurns(llm.requests, llm.responses)), config, indentation)
  },
}

const mockAgentSerializer: SnapshotSerializer = {
  test: (value) => kindOf(value) === 'MockAgent',
  serialize(agent: { name: string; calls: AgentCallRecord[] }, config, indentation) {
    return block(`MockAgent ${JSON.stringify(agent.name)} (${count(agent.calls.length, 'call')})`, renderAgentCalls(agent.calls), config, indentation)
  },
}

const fakeRequestSerializer: SnapshotSerializer = {
  test: isFakeRequest,
  serialize(request: FakeRequest, config, indentation) {
    const [turn] = proxyTurns([request])
    return block(`FakeRequest ${fakeRequestHeader(request)}`, renderTurns([turn]).slice(1).map((line) => line.slice(2)), config, indentation)
  },
}

const modelRequestSerializer: SnapshotSerializer = {
  test: isModelRequest,
  serialize(request: ModelRequest, config, indentation) {
    return block(`ModelRequest ${modelRequestHeader(request)}`, renderRequest(request), config, indentation)
  },
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}

/**
 * The serializers for `FakeProxy` (and its lanes), `ScriptedLLM`, `MockAgent`, `FakeRequest` and
 * `ModelRequest`. The setup entries, `agent-doubles/vitest` and `installMatchers` register them;
 * add them yourself when you register the matchers with `expect.extend(matchers)`.
 * @example
 * import { snapshotSerializers } from 'agent-doubles/matchers'
 * for (const serializer of snapshotSerializers) expect.addSnapshotSerializer(serializer)
 * expect(proxy).toMatchSnapshot()
 */
export const snapshotSerializers: readonly SnapshotSerializer[] = Object.freeze([
  fakeProxySerializer,
  scriptedLLMSerializer,
  mockAgentSerializer,
  fakeRequestSerializer,
  modelRequestSerializer,
])
