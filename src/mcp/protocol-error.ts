/**
 * A JSON-RPC error the server answers with. The SDK's protocol layer sends any thrown error's
 * `code`, `message` and `data` as they are, so this module needs no SDK.
 * @module
 */

/** JSON-RPC and MCP error codes the fake answers with. */
export const RpcCode = {
  /** Not JSON. */
  ParseError: -32700,
  /** Bad parameters: an unknown tool or prompt, a missing prompt argument. */
  InvalidParams: -32602,
  /** The server failed (and `fail({ kind: 'error' })`). */
  InternalError: -32603,
  /** MCP's code for a resource URI it does not have. */
  ResourceNotFound: -32002,
} as const

/** An error answered as a JSON-RPC error object `{ code, message, data? }`. */
export class McpProtocolError extends Error {
  readonly code: number
  readonly data: unknown

  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.name = 'McpProtocolError'
    this.code = code
    this.data = data
  }
}
