/**
 * agent-doubles — test doubles for LLM agents: `MockAgent` (a whole agent), `FakeProxy` (an LLM
 * gateway on real HTTP that speaks the OpenAI and Anthropic wire protocols) and `ScriptedLLM`
 * (a scripted or transcript-replaying model, plus a recorder). This entry imports no test runner.
 * @module
 */

export { MockAgent, mockAgent, Envelope, Metadata, ErrorInfo } from './agent/index.js'
export type {
  MockAgentOptions,
  MockCall,
  Totals,
  EnvelopeInit,
  MetadataInit,
  ErrorInfoInit,
  AgentTool,
  AgentToolDefinition,
  TaskParameters,
  SpyState,
  MockResult,
  MockSettledResult,
  StandardSchemaV1,
} from './agent/index.js'

export { ScriptedLLM, scriptedLLM, toolCall, customToolCall, lastUserText, record } from './llm/index.js'
export type {
  Script,
  ScriptFunction,
  ReplyMap,
  Reply,
  ReplyObject,
  ReplyPart,
  ScriptedToolCall,
  ScriptedLLMOptions,
  TranscriptOptions,
  ModelCapabilities,
  Chunking,
  Latency,
  UsageOption,
  RecordOptions,
  WritableLike,
  AiLanguageModel,
  RuleMatch,
  RuleOptions,
  TextMatcher,
  RuleDeclaration,
} from './llm/index.js'
export type * from './llm/types.js'

export { FakeProxy, ProxyLane } from './server/fake-proxy.js'
export type {
  FakeProxyOptions,
  StartOptions,
  FailOptions,
  FaultKind,
  ReplyBody,
  ReplyOptions,
  RefuseOptions,
} from './server/fake-proxy.js'
export type { UpstreamOrigins } from './upstream/record-mode.js'
export type { TranscriptStream } from './upstream/transcript-sink.js'
export { ProxyClient } from './gateway/proxy-client.js'
export type { ProxyClientOptions, ProxyInfo } from './gateway/proxy-client.js'
export type { AgentBinding, BoundClientOptions } from './gateway/agent-binding.js'
export { AGENT_NAME } from './gateway/identity.js'
export type { FakeRequest, Refusal, Identity, Dialect, ProxyFeature, AgentDefinition } from './server/types.js'
export type { WebSocketSession, WebSocketTransport } from './server/websocket/session-book.js'
export type { ProxyRealtime } from './server/websocket/proxy-sessions.js'

export * from './gateway/proxy-error.js'
export { refusalCodes, isRefusalCode } from './gateway/refusal-codes.js'
export type { RefusalCode, RefusalCodeInfo } from './gateway/refusal-codes.js'
export { resetAll } from './registry.js'
export { configure } from './config.js'
export type { AgentDoublesConfig, ModelPrice, ModelInfo } from './config.js'
export { countTokens, tokenCounterFor, estimateTokenCount, prepareTokenCounter } from './llm/tokens.js'
export type { TokenCounter } from './llm/tokens.js'
export { knownModels } from './llm/models.js'
export type { KnownModel } from './llm/models.js'
export type { ProxyUsage, RequestUsage } from './server/usage-report.js'
export type { PromptCacheRecord } from './server/types.js'
export type { CacheMiss } from './llm/prompt-cache.js'

export { installNetworkGuard } from './guard/network-guard.js'
export type { NetworkGuardOptions } from './guard/network-guard.js'
export { providerHosts, routeProvidersTo } from './guard/provider-hosts.js'

export { providerError, ProviderError, providerErrorNames, isProviderError, isProviderErrorName } from './provider-errors.js'
export type { ProviderErrorName, ProviderErrorOptions, ProviderErrorPlanOptions } from './provider-errors.js'
export { misbehave, misbehaviourKinds, isMisbehaviour } from './llm/misbehave.js'
export type { Misbehaviour, MisbehaviourKind, MisbehaveOptions } from './llm/misbehave.js'
export { chaosKinds, defaultChaosKinds, chaosDecision } from './server/chaos.js'
export type { ChaosConfig, ChaosKind, ChaosOptions, RequestFault } from './server/chaos.js'
export type { MisbehavePlanOptions, LaneOptions } from './server/fake-proxy.js'
export type { PacingOptions } from './server/pacing.js'
export type { RateLimitOptions } from './server/rate-limit.js'
export { FakeMcpServer, fakeMcpServer } from './mcp/index.js'
export type * from './mcp/index.js'
