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
  /** The block's fields: `text`, or `data` and `mimeType`, or `uri`, … */
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
  /** Anything else a result may carry (`_meta`, …). */
  [field: string]: unknown
}

/** A JSON Schema of a tool's arguments; MCP requires `type: 'object'`. */
export interface McpJsonSchema {
  /** MCP tool inputs are objects. */
  type: 'object'
  /** The schema of each argument. */
  properties?: Record<string, unknown>
  /** The arguments that must be given. */
  required?: readonly string[]
  /** Any other JSON Schema keyword (`additionalProperties`, `$defs`, …). */
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

/**
 * One tool: what `tools/list` shows and how `tools/call` answers.
 * @example
 * { description: 'Current weather', inputSchema: z.object({ city: z.string() }), responses: { Paris: 'sunny', '*': 'rain' } }
 */
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
  /** Who says it. */
  role: 'user' | 'assistant'
  /** A string (a text block) or any content block. */
  content: string | McpContent
}

/** One argument a prompt takes. */
export interface McpPromptArgument {
  /** The argument's name, a key of the arguments `prompts/get` receives. */
  name: string
  /** Shown to the user. */
  description?: string
  /** `prompts/get` without it is an error. @default false */
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

/**
 * Options of `fakeMcpServer()` / `new FakeMcpServer()`.
 * @example
 * fakeMcpServer({ name: 'weather', tools: { get_weather: { responses: 'sunny' } }, resources: { 'file:///notes.md': 'hi' } })
 */
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
  /**
   * The most Streamable HTTP sessions open at once; opening one more ends the least recently
   * used (SPEC §24). A client of an ended session gets the SDK's 404 `Session not found`.
   * @default 1000
   */
  maxSessions?: number
  /** How long a session may go unused before it is ended (checked as requests arrive). @default 600000 (10 min) */
  sessionIdleMs?: number
  /** How long a request's headers and body may take to arrive before a 408. @default 60000 */
  requestTimeoutMs?: number
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
  /** `'2.0'` in a valid message. */
  jsonrpc?: unknown
  /** Present on requests and responses. */
  id?: string | number | null
  /** Present on requests and notifications, e.g. `'tools/call'`. */
  method?: string
  /** The request's or notification's parameters. */
  params?: unknown
  /** A response's result (the client answering the server). */
  result?: unknown
  /** A response's error. */
  error?: unknown
  /** Anything else the client sent. */
  [field: string]: unknown
}

/**
 * How a planned fault breaks a `tools/call`: a JSON-RPC internal error (`error`), the connection
 * cut with no answer (`disconnect`), no answer at all until the client gives up (`timeout`), or an
 * answer that is not a valid tool result (`invalid`).
 */
export type McpFaultKind = 'error' | 'disconnect' | 'timeout' | 'invalid'

/**
 * Options of `mcp.fail()`.
 * @example
 * mcp.fail({ tool: 'get_weather', kind: 'disconnect', times: 2 })
 */
export interface McpFailOptions {
  /** Only calls of this tool break. @default any tool */
  tool?: string
  /** How the call breaks. */
  kind: McpFaultKind
  /** How many of the next matching calls break. @default 1 */
  times?: number
}
