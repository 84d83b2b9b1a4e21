/**
 * `agent-doubles mcp --config file.json`: a FakeMcpServer over stdio, for MCP clients that
 * spawn their servers (SPEC §13). stdout carries the protocol, so nothing else is written there.
 * @module
 */
import { readFile } from 'node:fs/promises'
import type { Readable, Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { PREFIX } from '../internal/describe.js'
import { createProtocolServer } from '../mcp/protocol-server.js'
import { loadMcpSdk, missingPeerError } from '../mcp/sdk.js'
import { McpState } from '../mcp/state.js'
import type { FakeMcpServerOptions, McpCall, McpMessage } from '../mcp/types.js'
import { lineTooLong, limitLines, STDIO_LINE_LIMIT } from '../mcp/stdio-lines.js'

/** The usage line printed on bad arguments. */
export const mcpUsage = 'Usage: agent-doubles mcp --config file.json'

const OWNER = 'agent-doubles mcp'

/** A running stdio server. */
export interface StdioMcpServer {
  /** Every JSON-RPC message received, oldest first, as over HTTP (`FakeMcpServer.requests`). */
  readonly requests: readonly McpMessage[]
  /** Every `tools/call`, oldest first (`FakeMcpServer.calls`). */
  readonly calls: readonly McpCall[]
  /** Clears the records and planned faults, as `FakeMcpServer.reset()` does. */
  reset(): void
  /** Ends the connection. */
  close(): Promise<void>
}

/**
 * Reads the config — the options of `fakeMcpServer()` as JSON: `name`, `version`,
 * `instructions`, `tools` (JSON Schema `inputSchema`, `responses` as a map, list or value,
 * `cycle`), `resources`, `prompts` — and serves it on `stdin`/`stdout`.
 * @throws {TypeError} bad arguments (with the usage) or a config that is not valid.
 * @throws {Error} the config cannot be read, or the SDK is not installed.
 */
export async function serveMcpStdio(
  argv: string[],
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
  stderr: Writable = process.stderr,
): Promise<StdioMcpServer> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { config: { type: 'string' } } })
  if (positionals[0] !== 'mcp' || positionals.length > 1 || !values.config) throw new TypeError(mcpUsage)
  const options = await readConfig(values.config)
  const state = new McpState(OWNER, options)
  const sdk = await loadMcpSdk(OWNER)
  const stdio = await import('@modelcontextprotocol/sdk/server/stdio.js').catch((error: unknown) => {
    throw missingPeerError(OWNER, error)
  })
  state.compile = sdk.compile
  const server = createProtocolServer(sdk, state)
  // Oversized lines never reach the SDK's transport, which would close on them.
  const lines = limitLines(stdin, STDIO_LINE_LIMIT, (bytes) => stderr.write(lineTooLong(bytes, STDIO_LINE_LIMIT)))
  const transport = new stdio.StdioServerTransport(lines, stdout)
  await server.connect(transport)
  // Recorded as over HTTP, though only a test reading `requests` in-process would see them.
  const deliver = transport.onmessage
  transport.onmessage = (message) => {
    state.record(message)
    deliver?.(message)
  }
  return {
    get requests() {
      return state.requests
    },
    get calls() {
      return state.calls
    },
    reset: () => state.reset(),
    close: () => server.close(),
  }
}

async function readConfig(path: string): Promise<FakeMcpServerOptions> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new Error(`${PREFIX} ${OWNER}: cannot read --config ${path}: ${(error as Error).message}`)
  }
  let config: unknown
  try {
    config = JSON.parse(text)
  } catch (error) {
    throw new TypeError(`${PREFIX} ${OWNER}: --config ${path} is not JSON: ${(error as Error).message}`)
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new TypeError(`${PREFIX} ${OWNER}: --config ${path} must hold an object like { "tools": { … } }`)
  }
  return config as FakeMcpServerOptions
}

/**
 * Runs the command until stdin ends or SIGINT/SIGTERM; a bad argument or config is printed to
 * stderr with exit code 2.
 */
export async function runMcpCommand(argv: string[]): Promise<void> {
  let server: StdioMcpServer
  try {
    server = await serveMcpStdio(argv)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 2
    return
  }
  const stop = () => void server.close().then(() => process.stdin.destroy())
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  process.stdin.once('end', stop)
}
