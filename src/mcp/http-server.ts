/**
 * Streamable HTTP for a FakeMcpServer: `POST`, `GET` and `DELETE` on `/mcp` of a `node:http`
 * server on 127.0.0.1. Each `initialize` opens a session (its own SDK transport and protocol
 * server, named by `Mcp-Session-Id`); every session answers from the one shared state. Planned
 * faults are applied here, before the transport, because they break the HTTP exchange itself.
 * @module
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { PREFIX } from '../internal/describe.js'
import { MAX_BODY_BYTES, readBody, startServer } from '../server/server.js'
import { refuseNonLocal } from '../server/local-only.js'
import { createProtocolServer } from './protocol-server.js'
import { RpcCode } from './protocol-error.js'
import type { McpSdk } from './sdk.js'
import type { McpState } from './state.js'

/** The path of the MCP endpoint. */
export const MCP_PATH = '/mcp'

/** A listening MCP endpoint. */
export interface RunningMcpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string
  /** Sends `notifications/tools/list_changed` to every open session. */
  listChanged(): Promise<void>
  /** Ends every session, stops listening and destroys every connection. */
  close(): Promise<void>
}

interface Session {
  server: Server
  transport: StreamableHTTPServerTransport
  /** When a request last named it (`Date.now()`). */
  usedAt: number
}

/** The bounds of the HTTP server (SPEC §24); each `undefined` takes its default. */
export interface McpHttpLimits {
  /** Sessions open at once; one more ends the least recently used. @default 1000 */
  maxSessions?: number | undefined
  /** Unused this long, a session is ended. @default 600000 */
  sessionIdleMs?: number | undefined
  /** A request's headers and body arrive within this or get a 408. @default 60000 */
  requestTimeoutMs?: number | undefined
}

/** The default bounds of {@link McpHttpLimits}. */
export const MCP_HTTP_DEFAULTS = Object.freeze({ maxSessions: 1000, sessionIdleMs: 10 * 60_000 })

/** Listens on `port` of 127.0.0.1 (0 takes a free one) and serves `state` over Streamable HTTP. */
export async function startMcpHttp(sdk: McpSdk, state: McpState, port = 0, limits: McpHttpLimits = {}): Promise<RunningMcpServer> {
  const maxSessions = limits.maxSessions ?? MCP_HTTP_DEFAULTS.maxSessions
  const idleMs = limits.sessionIdleMs ?? MCP_HTTP_DEFAULTS.sessionIdleMs
  // Named sessions, least recently used first: a use moves a session to the end.
  const sessions = new Map<string, Session>()
  // Every session opened, named or not yet: close() ends them all.
  const opened = new Set<Session>()

  async function openSession(): Promise<Session> {
    const transport: StreamableHTTPServerTransport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // No keep-alive frames: a test double must leave no timer behind.
      keepAliveMs: 0,
      onsessioninitialized: (id) => {
        sessions.set(id, session)
        // Over the cap, the least recently used go first (SPEC §24).
        for (const [, oldest] of sessions) {
          if (sessions.size <= maxSessions) break
          endSession(oldest)
        }
      },
    })
    const session: Session = { server: createProtocolServer(sdk, state), transport, usedAt: Date.now() }
    opened.add(session)
    transport.onclose = () => {
      opened.delete(session)
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId)
    }
    await session.server.connect(transport)
    return session
  }

  /** Ends a session: its client's next request gets `Session not found`. */
  function endSession(session: Session): void {
    if (session.transport.sessionId !== undefined) sessions.delete(session.transport.sessionId)
    opened.delete(session)
    void session.server.close().catch(() => undefined)
  }

  /**
   * The session named `id`, marked as used now; sessions idle for longer than allowed are ended
   * first. Checked as requests arrive rather than by a timer, so an idle server holds no timer.
   */
  function useSession(id: string): Session | undefined {
    const now = Date.now()
    for (const [, session] of sessions) {
      if (now - session.usedAt < idleMs) break
      endSession(session)
    }
    const session = sessions.get(id)
    if (!session) return undefined
    session.usedAt = now
    sessions.delete(id)
    sessions.set(id, session)
    return session
  }

  async function post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const read = await readBody(req)
    if (read.kind === 'aborted') return
    if (read.kind === 'too-large') {
      return answerError(res, 413, -32000, `Payload Too Large: the body exceeds ${MAX_BODY_BYTES} bytes`)
    }
    let body: unknown
    try {
      body = JSON.parse(Buffer.from(read.body).toString('utf8'))
    } catch {
      return answerError(res, 400, RpcCode.ParseError, 'Parse error: Invalid JSON')
    }
    state.record(body)
    const sessionId = headerOf(req, 'mcp-session-id')
    if (sessionId === undefined) {
      if (!isInitialize(body)) return answerError(res, 400, -32000, 'Bad Request: No valid session ID provided')
      const session = await openSession()
      await session.transport.handleRequest(req, res, body)
      // Refused before it began (a bad Accept header, a batch of initializes): nothing to keep.
      if (session.transport.sessionId === undefined) await session.server.close()
      return
    }
    const session = useSession(sessionId)
    if (!session) return answerError(res, 404, -32001, 'Session not found')
    if (breakByFault(state, body, sessionId, res)) return
    return session.transport.handleRequest(req, res, body)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A web page in the developer's browser must not drive the server (SPEC §24).
    const refused = refuseNonLocal(req)
    if (refused) {
      req.resume()
      return answerError(res, refused.status, -32000, `${PREFIX} FakeMcpServer: ${refused.message}`)
    }
    const path = (req.url ?? '/').split('?')[0]
    if (path !== MCP_PATH) return answerError(res, 404, -32000, `Not Found: ${path} (the MCP endpoint is ${MCP_PATH})`)
    if (req.method === 'POST') return post(req, res)
    if (req.method === 'GET' || req.method === 'DELETE') {
      const sessionId = headerOf(req, 'mcp-session-id')
      if (sessionId === undefined) return answerError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required')
      const session = useSession(sessionId)
      if (!session) return answerError(res, 404, -32001, 'Session not found')
      return session.transport.handleRequest(req, res)
    }
    return answerError(res, 405, -32000, 'Method not allowed.', { allow: 'GET, POST, DELETE' })
  }

  const http = await startServer(async (req, res) => {
    try {
      await handle(req, res)
    } catch (error) {
      if (res.headersSent) res.destroy()
      else answerError(res, 500, RpcCode.InternalError, `${PREFIX} FakeMcpServer crashed on this request: ${error instanceof Error ? error.message : String(error)}`)
    }
  }, { port, requestTimeoutMs: limits.requestTimeoutMs })

  return {
    url: `${http.url}${MCP_PATH}`,
    listChanged: async () => {
      await Promise.all([...sessions.values()].map((session) => session.server.sendToolListChanged()))
    },
    close: async () => {
      // Closing the sessions first ends their event streams cleanly; then every socket goes.
      await Promise.all([...opened].map((session) => session.server.close()))
      await http.close()
    },
  }
}

/**
 * Breaks a `tools/call` a fault was planned for: answers it with a JSON-RPC internal error
 * (`error`) or with a result that is not a tool result (`invalid`), cuts the connection
 * (`disconnect`), or never answers (`timeout`; the socket ends when the client gives up or the
 * server closes). Returns whether it did.
 */
function breakByFault(state: McpState, body: unknown, sessionId: string, res: ServerResponse): boolean {
  if (!isToolCall(body)) return false
  const kind = state.faults.take(body.params.name)
  if (kind === undefined) return false
  state.recordFault(body.params.name, body.params.arguments, sessionId, kind)
  const headers = { 'mcp-session-id': sessionId }
  if (kind === 'error') {
    answerJson(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: RpcCode.InternalError, message: 'Internal error' } }, headers)
  } else if (kind === 'invalid') {
    answerJson(res, 200, { jsonrpc: '2.0', id: body.id, result: { content: 'not a list of content blocks' } }, headers)
  } else if (kind === 'disconnect') {
    res.socket?.destroy()
  }
  return true
}

interface ToolCallMessage {
  id: string | number
  method: 'tools/call'
  params: { name: string; arguments?: unknown }
}

function isToolCall(body: unknown): body is ToolCallMessage {
  const message = body as Partial<ToolCallMessage> | null
  return (
    typeof message === 'object' &&
    message !== null &&
    message.method === 'tools/call' &&
    (typeof message.id === 'string' || typeof message.id === 'number') &&
    typeof message.params?.name === 'string'
  )
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body]
  return messages.some((message) => (message as { method?: unknown } | null)?.method === 'initialize')
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function answerJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers })
  res.end(text)
}

/** A JSON-RPC error with no request id, the shape the SDK's transport answers HTTP-level faults with. */
function answerError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  answerJson(res, status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers)
}
