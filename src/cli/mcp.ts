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
import { mcpUsage } from './help.js'

export { mcpUsage } from './help.js'

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
  const { values, positionals } = parse(argv)
  if (positionals[0] !== 'mcp') throw usage(`expected the command mcp, got ${positionals[0] === undefined ? 'none' : JSON.stringify(positionals[0])}`)
  if (positionals.length > 1) throw usage(`mcp: unexpected argument ${JSON.stringify(positionals[1])}`)
  if (!values.config) throw usage('mcp: --config file.json is required')
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

/** A bad command line: the message, then the usage. */
function usage(message: string): TypeError {
  return new TypeError(`${PREFIX} ${message}\n\n${mcpUsage}`)
}

/** `parseArgs`, with its errors rewritten as one clear line and the usage. */
function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { config: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    })
  } catch (error) {
    const code = (error as { code?: string }).code
    const message = error instanceof Error ? error.message : String(error)
    const name = /'(-[^' ]+)/.exec(message)?.[1]
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw usage(`mcp: unknown option ${name ?? message}`)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw usage(`mcp: ${name ?? 'an option'} needs a value`)
    throw usage(`mcp: ${message}`)
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
