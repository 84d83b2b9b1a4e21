/**
 * The FakeMcpServer double (SPEC §13): a Model Context Protocol server over Streamable HTTP.
 * @module
 */

export { FakeMcpServer, fakeMcpServer } from './fake-mcp-server.js'
export type { McpStartOptions } from './fake-mcp-server.js'
export type {
  FakeMcpServerOptions,
  McpToolDefinition,
  McpToolResponses,
  McpToolFunction,
  McpCallContext,
  McpToolResult,
  McpContent,
  McpJsonSchema,
  McpResourceDefinition,
  McpPromptDefinition,
  McpPromptMessage,
  McpPromptArgument,
  McpCall,
  McpMessage,
  McpFailOptions,
  McpFaultKind,
} from './types.js'
