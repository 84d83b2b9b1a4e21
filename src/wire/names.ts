/**
 * The names the wire gives things: the dialect a request was served in, and the features a proxy
 * reports. Here, not with the server's records, so the dialects can name them without importing
 * the server.
 * @module
 */

/** The wire dialect a request was served in. */
export type Dialect =
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'openai-embeddings'
  | 'openai-models'
  | 'gemini-generate'
  | 'gemini-count-tokens'
  | 'gemini-embed'
  | 'gemini-models'
  | 'ollama-chat'
  | 'ollama-generate'
  | 'ollama-embed'
  | 'ollama-tags'
  | 'bedrock-converse'
  | 'bedrock-invoke'
  | 'bedrock-embed'
  | 'openai-realtime'
  | 'gemini-live'

/** The features a proxy can report from `GET /viper/v1/info`. */
export type ProxyFeature =
  | 'definitions'
  | 'skills'
  | 'instructions'
  | 'subagents'
  | 'responses_api'
  | 'anthropic_messages'
  | 'embeddings'

/** Every feature, in the order `/viper/v1/info` reports them. */
export const allFeatures: readonly ProxyFeature[] = Object.freeze([
  'definitions',
  'skills',
  'instructions',
  'subagents',
  'responses_api',
  'anthropic_messages',
  'embeddings',
])

/** Whose error shape the body takes: OpenAI routes, Anthropic routes, or the local agent API. */
export type ErrorStyle = 'openai' | 'anthropic' | 'local'
