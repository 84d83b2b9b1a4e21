/**
 * THE list of providers (SPEC §21): one line each, naming the provider its folder declares
 * (`defineProvider` in its `provider.ts`). Everything else is derived from this list in
 * dialects.ts: the route table, the unknown-path error shapes, the network guard's hosts,
 * `fakeProxy.env`, the side requests, and the package's `Dialect` union. Adding a provider is its
 * folder and one line here; nothing else outside the folder names it. The order decides nothing:
 * no two providers claim one path (test/wire/providers-layout.test.ts checks it), and a module
 * namespace lists its names alphabetically anyway.
 * @module
 */
export { anthropicProvider as anthropic } from './anthropic-messages/provider.js'
export { azureProvider as azure } from './azure/provider.js'
export { bedrockProvider as bedrock } from './bedrock/provider.js'
export { geminiProvider as gemini } from './gemini/provider.js'
export { ollamaProvider as ollama } from './ollama/provider.js'
export { openaiProvider as openai } from './openai/provider.js'
export { vertexProvider as vertex } from './vertex/index.js'
