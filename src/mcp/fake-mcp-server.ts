/**
 * `FakeMcpServer`: a Model Context Protocol server double over Streamable HTTP on 127.0.0.1
 * (SPEC §13). This class is a thin binding: it checks arguments and owns the state; `state.ts`
 * answers, `http-server.ts` holds the sessions and sockets, the official SDK speaks the protocol.
 * @module
 */
import { argumentError, checkOptions, is, PREFIX } from '../internal/describe.js'
import { KIND, kindOf } from '../kinds.js'
import { registerDouble, releaseDouble, reviveDouble } from '../registry.js'
import { startMcpHttp, type McpHttpLimits, type RunningMcpServer } from './http-server.js'
import { loadMcpSdk } from './sdk.js'
import { McpState } from './state.js'
import type { FakeMcpServerOptions, McpCall, McpFailOptions, McpMessage, McpToolDefinition } from './types.js'

const OWNER = 'FakeMcpServer'

/** Options of {@link FakeMcpServer.start}. */
export interface McpStartOptions {
  /** The port to listen on; 0 takes a free one. @default 0 */
  port?: number
}

const isPort = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65_535

/** A deep copy where possible: records must not change when a test edits what it read. */
function copy<T>(value: T): T {
  try {
    return structuredClone(value)
  } catch {
    return value
  }
}

/**
 * A fake MCP server over Streamable HTTP: tools with Standard Schema or JSON Schema inputs that
 * answer by MockAgent's rules, resources, prompts, sessions, `tools/list_changed`, planned
 * faults, and a record of every call and message. Needs the optional peer
 * `@modelcontextprotocol/sdk`, loaded by `start()`.
 * @example
 * await using mcp = await new FakeMcpServer({
 *   tools: { get_weather: { inputSchema: z.object({ city: z.string() }), responses: { Paris: 'sunny', '*': 'rain' } } },
 * }).start()
 * const transport = new StreamableHTTPClientTransport(new URL(mcp.url))
 * @throws {TypeError} an option, or a tool, resource or prompt definition, is malformed.
 */
export class FakeMcpServer {
  /** Brand recognised by the matchers across the ESM and CJS copies of the package. */
  readonly [KIND] = 'FakeMcpServer' as const

  /** `instanceof` by brand, so it holds across copies of the package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    return kindOf(value) === 'FakeMcpServer'
  }

  readonly #state: McpState
  readonly #limits: McpHttpLimits
  #server: RunningMcpServer | undefined
  #starting = false

  constructor(options: FakeMcpServerOptions = {}) {
    checkOptions(OWNER, options, {
      name: ['a string', is.string],
      version: ['a string', is.string],
      instructions: ['a string', is.string],
      tools: ['an object of tool definitions by name', is.object],
      resources: ['an object of contents by URI', is.object],
      prompts: ['an object of prompt definitions by name', is.object],
      maxSessions: ['a positive integer', is.positiveInteger],
      sessionIdleMs: ['a positive integer of milliseconds', is.positiveInteger],
      requestTimeoutMs: ['a positive integer of milliseconds', is.positiveInteger],
    })
    this.#limits = { maxSessions: options.maxSessions, sessionIdleMs: options.sessionIdleMs, requestTimeoutMs: options.requestTimeoutMs }
    this.#state = new McpState(OWNER, options)
    registerDouble(this)
  }

  /**
   * Loads `@modelcontextprotocol/sdk` and listens on a free port of 127.0.0.1 (or on `port`).
   * Started again after `close()`, it takes a new port and keeps what it recorded.
   * @example
   * const mcp = await fakeMcpServer({ tools: { ping: { responses: 'pong' } } }).start()
   * @throws {Error} it is already running, the port is taken, or the SDK is not installed
   * (the message names the package to install).
   * @throws {TypeError} `port` is not an integer from 0 to 65535.
   */
  async start(options: McpStartOptions = {}): Promise<this> {
    checkOptions(OWNER, options, { port: ['an integer from 0 to 65535', isPort] })
    if (this.#server || this.#starting) {
      throw new Error(`${PREFIX} ${OWNER}: start() called while it is running (at ${this.#server?.url ?? 'a port being opened'}); close() it first`)
    }
    this.#starting = true
    try {
      const sdk = await loadMcpSdk(OWNER)
      this.#state.compile = sdk.compile
      this.#server = await startMcpHttp(sdk, this.#state, options.port, this.#limits)
    } finally {
      this.#starting = false
    }
    reviveDouble(this)
    return this
  }

  /**
   * Ends every session, stops listening and destroys every connection (calls left hanging by a
   * `timeout` fault included); a no-op when not running.
   * @example
   * afterAll(() => mcp.close())
   */
  async close(): Promise<void> {
    const server = this.#server
    this.#server = undefined
    if (server) releaseDouble(this)
    await server?.close()
  }

  /**
   * Closes the server at the end of an `await using` block.
   * @example
   * await using mcp = await fakeMcpServer({ tools }).start()
   */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  /** Called when the test that made this server ends: closes it. @internal */
  dispose(): Promise<void> {
    return this.close()
  }

  /**
   * `http://127.0.0.1:<port>/mcp`, the Streamable HTTP endpoint.
   * @example
   * new StreamableHTTPClientTransport(new URL(mcp.url))
   * @throws {Error} the server is not running.
   */
  get url(): string {
    if (!this.#server) throw new Error(`${PREFIX} ${OWNER}: url read while it is not running; await mcp.start() first`)
    return this.#server.url
  }

  /**
   * Every `tools/call`, oldest first (copies): `{ tool, args, result?, error?, session }`.
   * @example
   * expect(mcp.calls[0]).toMatchObject({ tool: 'get_weather', args: { city: 'Paris' } })
   */
  get calls(): McpCall[] {
    return this.#state.calls.map((call) => ({ ...call, args: copy(call.args), ...(call.result ? { result: copy(call.result) } : {}) }))
  }

  /**
   * Every JSON-RPC message received, oldest first (copies): requests, notifications and the
   * client's responses, as sent.
   * @example
   * expect(mcp.requests.map((m) => m.method)).toContain('tools/list')
   */
  get requests(): McpMessage[] {
    return this.#state.requests.map(copy)
  }

  /**
   * Adds a tool, or replaces the one of that name (its list cursor back at the start). Call
   * {@link FakeMcpServer.listChanged} to tell connected clients. `reset()` undoes it.
   * @example
   * mcp.tool('get_time', { responses: '12:00' })
   * @throws {TypeError} the name is empty or the definition is malformed.
   */
  tool(name: string, definition: McpToolDefinition): this {
    if (typeof name !== 'string' || name.length === 0) throw argumentError(`${OWNER} tool()`, 'name', 'a non-empty string', name)
    this.#state.tools.set(name, definition)
    return this
  }

  /**
   * Breaks the next `tools/call`s (of `tool`, or of any tool): a JSON-RPC internal error
   * (`error`), the connection cut (`disconnect`), no answer until the client gives up or the
   * server closes (`timeout`), or an answer that is not a tool result (`invalid`). Each broken
   * call is recorded with an `error`.
   * @example
   * mcp.fail({ tool: 'get_weather', kind: 'error', times: 2 })
   * @throws {TypeError} the options are malformed.
   */
  fail(options: McpFailOptions): this {
    this.#state.faults.add(options)
    return this
  }

  /**
   * Sends `notifications/tools/list_changed` to every open session (clients that keep a
   * standalone event stream open receive it, then list the tools again).
   * @example
   * mcp.tool('get_time', { responses: '12:00' })
   * await mcp.listChanged()
   * @throws {Error} the server is not running.
   */
  async listChanged(): Promise<void> {
    if (!this.#server) throw new Error(`${PREFIX} ${OWNER}: listChanged() called while it is not running; await mcp.start() first`)
    await this.#server.listChanged()
  }

  /**
   * Clears the records and planned faults, rewinds every `responses` list, and puts the tools
   * back as the options declared them; keeps running, sessions open. The setup entries call it
   * after each test.
   * @example
   * afterEach(() => mcp.reset())
   */
  reset(): void {
    this.#state.reset()
  }
}

/**
 * `fakeMcpServer(options)` ≡ `new FakeMcpServer(options)` (not started: `await` its `start()`).
 * @example
 * const mcp = await fakeMcpServer({ name: 'weather', tools: { get_weather: { responses: 'sunny' } } }).start()
 * @throws {TypeError} as the constructor.
 */
export function fakeMcpServer(options: FakeMcpServerOptions = {}): FakeMcpServer {
  return new FakeMcpServer(options)
}
