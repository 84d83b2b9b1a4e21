/**
 * What a test declares for a FakeMcpServer (SPEC §13) and what it records. Plain data: the
 * machinery that serves it lives beside this file.
 * @module
 */
import type { StandardSchemaV1 } from '../agent/standard-schema.js'

/** One block of a tool result or prompt message, as MCP carries it (`text`, `image`, `resource_link`, …). */
export interface McpContent {
  /** `'text'`, `'image'`, `'audio'`, `'resource_link'` or `'resource'`. */
  type: string
  [field: string]: unknown
}

/** A `tools/call` result as sent on the wire. */
export interface McpToolResult {
  /** What the model reads. */
  content: McpContent[]
  /** The result as JSON, for clients that read it (sent for plain-object answers). */
  structuredContent?: Record<string, unknown>
  /** The tool failed; `content` says why, for the model to read. */
  isError?: boolean
  [field: string]: unknown
}

/** A JSON Schema of a tool's arguments; MCP requires `type: 'object'`. */
export interface McpJsonSchema {
  type: 'object'
  properties?: Record<string, unknown>
  required?: readonly string[]
  [keyword: string]: unknown
}

/** What a `responses` function learns about the call besides its arguments. */
export interface McpCallContext {
  /** The tool's name. */
  tool: string
  /** The `Mcp-Session-Id` of the caller (`'stdio'` over stdio). */
  session: string
}

/** A `responses` function: the arguments (validated) in, an answer value out. */
export type McpToolFunction = (args: any, call: McpCallContext) => unknown

/**
 * How a tool answers, by MockAgent's rules (SPEC §3): a function of the arguments; a map whose
 * keys are substrings of the arguments' JSON (`'*'` catches the rest); a list, one per call; or
 * one value for every call. An answer that is a string becomes a text block; an `Error` becomes
 * an `isError` result carrying its message; an object with a `content` list is sent as it is;
 * any other value is sent as JSON text (objects also as `structuredContent`).
 */
export type McpToolResponses =
  | McpToolFunction
  | { readonly [argumentsSubstring: string]: unknown }
  | readonly unknown[]
  | string
  | number
  | boolean
  | null
  | Error
  | McpToolResult

/** One tool: what `tools/list` shows and how `tools/call` answers. */
export interface McpToolDefinition {
  /** Shown to the model. */
  description?: string
  /** A human-readable name. */
  title?: string
  /**
   * The arguments' schema: a Standard Schema (a zod 4 schema, …) or a JSON Schema object.
   * Calls whose arguments fail it get an `isError` result naming the invalid fields, as the SDK's
   * `McpServer` answers, and `responses` is not consulted.
   * @default any object
   */
  inputSchema?: StandardSchemaV1 | McpJsonSchema
  /** MCP tool annotations (`readOnlyHint`, …), listed as given. */
  annotations?: Record<string, unknown>
  /**
   * How the tool answers (see {@link McpToolResponses}).
   * @default an empty result (`{ content: [] }`)
   */
  responses?: McpToolResponses
  /** Wrap around when a `responses` list runs out. @default false */
  cycle?: boolean
}

/** One resource: its contents and what `resources/list` shows. */
export interface McpResourceDefinition {
  /** Text contents (give `text` or `blob`). */
  text?: string
  /** Binary contents, base64. */
  blob?: string
  /** @default 'text/plain' for text */
  mimeType?: string
  /** @default the last segment of the URI */
  name?: string
  /** A human-readable name. */
  title?: string
  /** What it holds. */
  description?: string
}

/** One message of a prompt; a string `content` is a text block. */
export interface McpPromptMessage {
  role: 'user' | 'assistant'
  content: string | McpContent
}

/** One argument a prompt takes. */
export interface McpPromptArgument {
  name: string
  description?: string
  required?: boolean
}

/** One prompt: what `prompts/list` shows and what `prompts/get` answers. */
export interface McpPromptDefinition {
  /** Shown to the user. */
  description?: string
  /** A human-readable name. */
  title?: string
  /** The arguments it takes; required ones missing from `prompts/get` are an error. */
  arguments?: readonly McpPromptArgument[]
  /** The messages, or a function of the arguments giving them. */
  messages: readonly McpPromptMessage[] | ((args: Record<string, string>) => readonly McpPromptMessage[] | Promise<readonly McpPromptMessage[]>)
}

/** Options of `fakeMcpServer()` / `new FakeMcpServer()`. */
export interface FakeMcpServerOptions {
  /** `serverInfo.name`. @default 'fake-mcp' */
  name?: string
  /** `serverInfo.version`. @default '1.0.0' */
  version?: string
  /** The `instructions` sent at initialization. */
  instructions?: string
  /** The tools, by name. */
  tools?: Record<string, McpToolDefinition>
  /** The resources, by URI: a string is text contents. */
  resources?: Record<string, string | McpResourceDefinition>
  /** The prompts, by name. */
  prompts?: Record<string, McpPromptDefinition>
}

/** One recorded `tools/call`. */
export interface McpCall {
  /** The tool name the client asked for (known or not). */
  tool: string
  /** The arguments as received. */
  args: unknown
  /** The result sent back, when one was. */
  result?: McpToolResult
  /** What went wrong: an `Error` answer, a schema mismatch, an unknown tool, a planned fault. */
  error?: Error
  /** The caller's `Mcp-Session-Id` (`'stdio'` over stdio). */
  session: string
}

/** A JSON-RPC message as received (requests, notifications, and responses to the server). */
export interface McpMessage {
  jsonrpc?: unknown
  id?: string | number | null
  method?: string
  params?: unknown
  result?: unknown
  error?: unknown
  [field: string]: unknown
}

/**
 * How a planned fault breaks a `tools/call`: a JSON-RPC internal error (`error`), the connection
 * cut with no answer (`disconnect`), no answer at all until the client gives up (`timeout`), or an
 * answer that is not a valid tool result (`invalid`).
 */
export type McpFaultKind = 'error' | 'disconnect' | 'timeout' | 'invalid'

/** Options of `mcp.fail()`. */
export interface McpFailOptions {
  /** Only calls of this tool break. @default any tool */
  tool?: string
  /** How the call breaks. */
  kind: McpFaultKind
  /** How many of the next matching calls break. @default 1 */
  times?: number
}
