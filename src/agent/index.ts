/**
 * The MockAgent double (SPEC §3): `MockAgent`, the `Envelope` it returns, `Metadata` and `ErrorInfo`.
 * @module
 */

export { MockAgent, mockAgent } from './mock-agent.js'
export type {
  MockAgentOptions,
  MockCall,
  AgentTool,
  AgentToolDefinition,
  TaskParameters,
  SpyState,
  MockResult,
  MockSettledResult,
} from './mock-agent.js'
export { Envelope, Metadata } from './envelope.js'
export type { EnvelopeInit, MetadataInit, Totals } from './envelope.js'
export { ErrorInfo } from './error-info.js'
export type { ErrorInfoInit } from './error-info.js'
export { isStandardSchema, validateWithSchema, formatIssues } from './standard-schema.js'
export type { StandardSchemaV1 } from './standard-schema.js'
