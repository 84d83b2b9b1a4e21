/**
 * The names the wire gives things: the features a proxy reports and the error shapes it answers
 * in. Here, not with the server's records, so the dialects can name them without importing the
 * server. (The dialects' own names make the `Dialect` union in dialects.ts, from each provider's
 * declaration.)
 * @module
 */

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
