/**
 * What every session of a FakeMcpServer shares: the declared tools, resources and prompts, the
 * planned faults, and the records. It answers `tools/call` by the rules of SPEC §13 and knows
 * nothing of the SDK or the transport.
 * @module
 */
import { isError } from '../agent/envelope.js'
import { PREFIX } from '../internal/describe.js'
import { McpFaultPlan } from './faults.js'
import { PromptSet } from './prompts.js'
import { McpProtocolError, RpcCode } from './protocol-error.js'
import { ResourceSet } from './resources.js'
import { resolveToolValue, toToolResult } from './tool-answer.js'
import { checkArguments, ToolSet, type JsonSchemaCompiler } from './tool-set.js'
import type { FakeMcpServerOptions, McpCall, McpFaultKind, McpMessage, McpToolResult } from './types.js'

/** `serverInfo` and the initialization instructions. */
export interface ServerIdentity {
  name: string
  version: string
  instructions: string | undefined
}

/** The shared state of one FakeMcpServer (or of the CLI's stdio server). */
export class McpState {
  readonly identity: ServerIdentity
  readonly tools: ToolSet
  readonly resources: ResourceSet
  readonly prompts: PromptSet
  readonly faults = new McpFaultPlan()
  readonly calls: McpCall[] = []
  readonly requests: McpMessage[] = []
  /** The JSON Schema compiler, from the SDK loaded at start. */
  compile: JsonSchemaCompiler | undefined

  /** @throws {TypeError} a tool, resource or prompt definition is malformed. */
  constructor(owner: string, options: FakeMcpServerOptions) {
    this.identity = { name: options.name ?? 'fake-mcp', version: options.version ?? '1.0.0', instructions: options.instructions }
    this.tools = new ToolSet(owner, options.tools)
    this.resources = new ResourceSet(owner, options.resources)
    this.prompts = new PromptSet(owner, options.prompts)
  }

  /** Records the JSON-RPC messages of one request body (one message, or a batch). */
  record(body: unknown): void {
    for (const message of Array.isArray(body) ? body : [body]) {
      if (typeof message === 'object' && message !== null) this.requests.push(message as McpMessage)
    }
  }

  /**
   * Answers a `tools/call`, recording it. Arguments failing the tool's schema get an `isError`
   * result naming the invalid fields (as the SDK's McpServer answers) and `responses` is not
   * consulted; an `Error` answer becomes an `isError` result.
   * @throws {McpProtocolError} -32602 for an unknown tool; -32603 when the test's `responses`
   * cannot answer (no map key matched, a list ran out) or gave a value JSON cannot carry.
   */
  async callTool(tool: string, args: unknown, session: string): Promise<McpToolResult> {
    const entry = this.tools.get(tool)
    if (!entry) {
      const error = new McpProtocolError(RpcCode.InvalidParams, `Unknown tool: ${tool}`)
      this.calls.push({ tool, args, error, session })
      throw error
    }
    const checked = await checkArguments(entry, args, (schema) => this.#compiler()(schema))
    if (checked.problem !== undefined) {
      const result: McpToolResult = { content: [{ type: 'text', text: checked.problem }], isError: true }
      this.calls.push({ tool, args, result, error: new Error(checked.problem), session })
      return result
    }
    let value: unknown
    let result: McpToolResult
    try {
      value = await resolveToolValue(entry, checked.value, { tool, session })
      result = toToolResult(value)
    } catch (mistake) {
      const message = mistake instanceof Error ? mistake.message : String(mistake)
      const error = new McpProtocolError(RpcCode.InternalError, message.startsWith(PREFIX) ? message : `${PREFIX} FakeMcpServer tool ${JSON.stringify(tool)}: ${message}`)
      this.calls.push({ tool, args, error, session })
      throw error
    }
    this.calls.push(isError(value) ? { tool, args, result, error: value, session } : { tool, args, result, session })
    return result
  }

  /** Records a call broken by a planned fault, and returns the error it stands for. */
  recordFault(tool: string, args: unknown, session: string, kind: McpFaultKind): Error {
    const error = new Error(`${PREFIX} FakeMcpServer: tools/call of ${JSON.stringify(tool)} broken by fail({ kind: '${kind}' })`)
    this.calls.push({ tool, args, error, session })
    return error
  }

  /** Clears the records and planned faults; tools go back to those declared, cursors rewound. */
  reset(): void {
    this.calls.length = 0
    this.requests.length = 0
    this.faults.clear()
    this.tools.restore()
  }

  #compiler(): JsonSchemaCompiler {
    if (!this.compile) throw new Error(`${PREFIX} FakeMcpServer: no JSON Schema validator loaded (start() loads it)`)
    return this.compile
  }
}
