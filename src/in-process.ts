/**
 * `agent-doubles/in-process`: the doubles that need no server — `FakeProxy` served through
 * `proxy.fetch`, `ScriptedLLM`, `MockAgent` — for runtimes without Node's server modules: Vitest
 * browser mode, edge runtimes. Nothing it loads imports a `node:` module, `Buffer` or `process`;
 * what needs Node (`proxy.start()`, record mode, reading files) loads Node's modules when called,
 * and fails there with the platform's error. The classes are the main entry's own. Register the
 * matchers from `agent-doubles/matchers` (also free of Node).
 * @example
 * import OpenAI from 'openai'
 * import { expect } from 'vitest'
 * import { FakeProxy, scriptedLLM } from 'agent-doubles/in-process'
 * import { installMatchers } from 'agent-doubles/matchers'
 *
 * installMatchers(expect)
 * const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi there' }) }) // never started
 * const openai = new OpenAI({ apiKey: 'test', baseURL: 'http://fake/v1', fetch: proxy.fetch, dangerouslyAllowBrowser: true })
 * @module
 */

export { FakeProxy, ProxyLane } from './server/fake-proxy.js'
export type { FakeProxyOptions, FailOptions, FaultKind, ReplyBody, ReplyOptions, RefuseOptions } from './server/fake-proxy.js'
export type { FakeRequest, Refusal, Identity, Dialect, ProxyFeature, AgentDefinition } from './server/types.js'
export { AGENT_NAME } from './gateway/identity.js'

export { ScriptedLLM, scriptedLLM } from './llm/scripted-llm.js'
export type { ScriptedLLMOptions, ModelCapabilities } from './llm/scripted-llm.js'
export { toolCall, lastUserText, type ScriptedToolCall } from './llm/helpers.js'
export type { Script, ScriptFunction, ReplyMap } from './llm/script.js'
export type { Reply, ReplyObject, ReplyPart } from './llm/reply.js'
export type * from './llm/types.js'

export { MockAgent, mockAgent, Envelope, Metadata, ErrorInfo } from './agent/index.js'
export type { MockAgentOptions, MockCall } from './agent/index.js'

export * from './gateway/proxy-error.js'
export { refusalCodes, isRefusalCode } from './gateway/refusal-codes.js'
export type { RefusalCode, RefusalCodeInfo } from './gateway/refusal-codes.js'
export { providerError, ProviderError, providerErrorNames, isProviderError, isProviderErrorName } from './provider-errors.js'
export type { ProviderErrorName, ProviderErrorOptions, ProviderErrorPlanOptions } from './provider-errors.js'
export { resetAll } from './registry.js'
export { configure } from './config.js'
export type { AgentDoublesConfig, ModelPrice } from './config.js'
