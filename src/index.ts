/**
 * agent-doubles — test doubles for LLM agents: `MockAgent` (a whole agent), `FakeProxy` (an LLM
 * gateway on real HTTP that speaks the OpenAI and Anthropic wire protocols) and `ScriptedLLM`
 * (a scripted or transcript-replaying model, plus a recorder). This entry imports no test runner.
 * @module
 */

export { MockAgent, mockAgent, Envelope, ErrorInfo } from './agent/index.js'
export type { MockAgentOptions, MockCall, Metadata, Totals } from './agent/index.js'

export { ScriptedLLM, scriptedLLM, toolCall, lastUserText, record } from './llm/index.js'
export type {
  Script,
  Reply,
  ScriptedLLMOptions,
  TranscriptOptions,
  RecordOptions,
} from './llm/index.js'
export type * from './llm/types.js'

export { FakeProxy } from './proxy/fake-proxy.js'
export type { FakeProxyOptions, FailOptions, ReplyOptions, RefuseOptions } from './proxy/fake-proxy.js'
export { ProxyClient } from './proxy/proxy-client.js'
export type { AgentBinding } from './proxy/proxy-client.js'
export type { FakeRequest, Refusal, Identity, Dialect, ProxyFeature, AgentDefinition } from './proxy/types.js'

export * from './proxy-error.js'
export { refusalCodes } from './refusal-codes.js'
export type { RefusalCode, RefusalCodeInfo } from './refusal-codes.js'
export { resetAll } from './registry.js'
