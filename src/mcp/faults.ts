/**
 * Planned faults of a FakeMcpServer (`mcp.fail()`): the next `tools/call`s (of one tool, or of
 * any) break, so tests can exercise an agent's handling of a failing tool server.
 * @module
 */
import { argumentError, checkOptions, is } from '../internal/describe.js'
import type { McpFailOptions, McpFaultKind } from './types.js'

const kinds: readonly McpFaultKind[] = ['error', 'disconnect', 'timeout', 'invalid']
const KINDS = kinds.map((kind) => JSON.stringify(kind)).join(' | ')

interface PlannedFault {
  tool: string | undefined
  kind: McpFaultKind
  remaining: number
}

/** The queue of planned faults; each call takes at most one, the oldest that applies to it. */
export class McpFaultPlan {
  readonly #queue: PlannedFault[] = []

  /**
   * Plans `options.times` faults after those already planned.
   * @throws {TypeError} the options are malformed.
   */
  add(options: McpFailOptions): void {
    const owner = 'FakeMcpServer fail()'
    if (!is.object(options)) throw argumentError(owner, 'options', 'an object like { kind: "error" }', options)
    checkOptions(owner, options, {
      tool: ['a tool name (a string)', is.string],
      kind: [KINDS, (value) => kinds.includes(value as McpFaultKind)],
      times: ['a positive integer', is.positiveInteger],
    })
    if (!kinds.includes(options.kind)) throw argumentError(owner, 'option kind', KINDS, options.kind)
    this.#queue.push({ tool: options.tool, kind: options.kind, remaining: options.times ?? 1 })
  }

  /** The fault a call of `tool` must suffer, if any (consumes one). */
  take(tool: string): McpFaultKind | undefined {
    const index = this.#queue.findIndex((fault) => fault.tool === undefined || fault.tool === tool)
    if (index === -1) return undefined
    const fault = this.#queue[index]
    if (--fault.remaining === 0) this.#queue.splice(index, 1)
    return fault.kind
  }

  /** Drops every planned fault. */
  clear(): void {
    this.#queue.length = 0
  }
}
