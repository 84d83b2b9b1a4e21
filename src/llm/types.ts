/**
 * The neutral model: the one vocabulary every dialect decodes into and encodes out of,
 * and every double speaks. Nothing here knows about HTTP or any provider's wire format.
 * @module
 */

/** A piece of a message: text, a tool call, a tool result, reasoning, an image, or a refusal. */
export type Part = TextPart | ToolCallPart | ToolResultPart | ReasoningPart | ImagePart | RefusalPart

/** Plain text. */
export interface TextPart {
  type: 'text'
  text: string
}

/** The model asks for a tool to be run with `args`. */
export interface ToolCallPart {
  type: 'tool-call'
  /** Correlates the call with its later {@link ToolResultPart}. */
  id: string
  name: string
  args: unknown
  /**
   * The arguments exactly as the model wrote them, when that is not the JSON of `args`: text
   * that is not JSON, or JSON cut short (a misbehaving model, SPEC §19). Wires that carry
   * arguments as text send it as it is; each dialect renders it as its provider would.
   */
  argsText?: string
}

/**
 * The model declined to answer, in words (OpenAI's `refusal` field, Anthropic's
 * `stop_reason: "refusal"`): each dialect renders it as its provider sends a refusal.
 */
export interface RefusalPart {
  type: 'refusal'
  text: string
}

/** The result of a tool call, carried back to the model. */
export interface ToolResultPart {
  type: 'tool-result'
  /** The id of the {@link ToolCallPart} this answers. */
  id: string
  name?: string
  result: unknown
  isError?: boolean
}

/** The model's visible reasoning. */
export interface ReasoningPart {
  type: 'reasoning'
  text: string
}

/** An image, by URL or inline data (base64). */
export interface ImagePart {
  type: 'image'
  mediaType?: string
  url?: string
  data?: string
}

/** One turn of a conversation. System prompts live in {@link ModelRequest.system}. */
export interface Message {
  role: 'user' | 'assistant' | 'tool'
  content: Part[]
}

/** A tool the model may call; `parameters` is a JSON Schema. */
export interface ToolDefinition {
  name: string
  description?: string
  parameters: unknown
  /**
   * Set on a freeform tool (OpenAI Responses `type: "custom"`, as Codex's `exec`): its input is
   * text, not JSON arguments, and `parameters` holds its input format (a grammar) when it has one.
   */
  custom?: true
  /** The namespace the tool was offered in (OpenAI Responses `type: "namespace"` tool groups). */
  namespace?: string
}

/** How the model may use tools: `'auto'`, `'none'`, `'required'`, or one named tool. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string }

/** Ask for JSON output, optionally constrained by a JSON Schema. */
export interface ResponseFormat {
  type: 'json'
  schema?: unknown
  /** The schema's name, when the client gave one. */
  name?: string
}

/** One call to a model, whatever client made it. */
export interface ModelRequest {
  model: string
  system?: string
  messages: Message[]
  tools?: ToolDefinition[]
  toolChoice?: ToolChoice
  responseFormat?: ResponseFormat
  maxTokens?: number
  temperature?: number
  stream: boolean
}

/** Why the model stopped. */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'refusal'

/**
 * Token counts of one call. `inputTokens` counts every input token, those read from or written
 * to the prompt cache included (as OpenAI and Gemini report them); dialects that report the
 * uncached rest on its own (Anthropic, Bedrock) subtract the cache counts when they encode.
 */
export interface Usage {
  inputTokens: number
  outputTokens: number
  /** Input tokens read from the prompt cache (SPEC §20). */
  cacheReadTokens?: number
  /** Input tokens written to the prompt cache. */
  cacheWriteTokens?: number
  /** Of {@link cacheWriteTokens}, those written with a one-hour TTL (Anthropic's `ttl: '1h'`). */
  cacheWrite1hTokens?: number
}

/** What a model answered. */
export interface ModelResponse {
  content: Part[]
  finishReason: FinishReason
  usage: Usage
  model?: string
  id?: string
}

/**
 * One event of a streamed answer. Text and reasoning arrive in deltas; a tool call arrives
 * whole (dialect encoders split its arguments across deltas on the wire). The stream always
 * ends with exactly one `finish` event carrying the whole response.
 */
export type StreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'refusal-delta'; text: string }
  | { type: 'tool-call'; id: string; name: string; args: unknown; argsText?: string }
  | { type: 'finish'; response: ModelResponse }

/** What a caller may hand {@link LLM.stream} besides the request. */
export interface StreamOptions {
  /**
   * Aborted when the caller stops listening (its client left, or the proxy closed): a pending
   * wait (`latency`) ends at once and leaves no timer behind.
   */
  signal?: AbortSignal
  /**
   * Called once the call is accepted — it can no longer fail with a status — before any wait
   * for the first event, so a server can send its headers then, as a real one does.
   */
  onAccepted?: () => void
}

/** The neutral model interface every part of the library speaks. */
export interface LLM {
  generate(req: ModelRequest): Promise<ModelResponse>
  stream(req: ModelRequest, options?: StreamOptions): AsyncIterable<StreamEvent>
  /**
   * The LLM that serves one caller identity (a FakeProxy passes `"<agent>/<subagent>"`).
   * Doubles whose cursors are per caller (`perCall` transcripts) return a cursor of their own
   * for each key; others may leave this out, and the caller then uses the LLM itself.
   */
  session?(key: string): LLM
  /**
   * The embedding vector of `text` for `model`. Optional: a FakeProxy answers embedding
   * requests of every dialect with it when present, else with deterministic vectors.
   * @example
   * const withVectors: LLM = { generate: (req) => llm.generate(req), stream: (req) => llm.stream(req), embed: (text) => [text.length] }
   */
  embed?(text: string, model: string): number[] | Promise<number[]>

  /**
   * Drops what the LLM recorded, keeping its place in any script. A FakeProxy's `reset()`
   * calls it on its brain, so records are not held twice.
   */
  clearRecords?(): void
}
