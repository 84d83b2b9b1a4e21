/**
 * One SDK `Server` (the protocol layer: initialization, version negotiation, `ping`, unknown
 * methods) with handlers that answer from the shared {@link McpState}. Each HTTP session, and
 * the stdio connection, gets its own.
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { McpSdk } from './sdk.js'
import type { McpState } from './state.js'

/** The session name recorded for calls that came over stdio, which has no session id. */
export const STDIO_SESSION = 'stdio'

/**
 * A protocol server declaring `tools` (with `listChanged`), `resources` and `prompts`, whose
 * handlers read `state`.
 */
export function createProtocolServer(sdk: McpSdk, state: McpState): Server {
  const { identity } = state
  const server = new sdk.Server(
    { name: identity.name, version: identity.version },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      ...(identity.instructions === undefined ? {} : { instructions: identity.instructions }),
    },
  )
  const { schemas } = sdk
  server.setRequestHandler(schemas.ListToolsRequestSchema, () => ({ tools: state.tools.list() }) as never)
  server.setRequestHandler(schemas.CallToolRequestSchema, (request, extra) =>
    state.callTool(request.params.name, request.params.arguments, extra.sessionId ?? STDIO_SESSION) as never,
  )
  server.setRequestHandler(schemas.ListResourcesRequestSchema, () => ({ resources: state.resources.list() }))
  server.setRequestHandler(schemas.ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }))
  server.setRequestHandler(schemas.ReadResourceRequestSchema, (request) => ({ contents: state.resources.read(request.params.uri) }) as never)
  server.setRequestHandler(schemas.ListPromptsRequestSchema, () => ({ prompts: state.prompts.list() }))
  server.setRequestHandler(schemas.GetPromptRequestSchema, (request) => state.prompts.get(request.params.name, request.params.arguments) as never)
  return server
}
