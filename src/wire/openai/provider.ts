/**
 * The OpenAI API as one provider (SPEC §21): the Chat, Responses, embeddings and model-list
 * dialects' routes, OpenAI's host and the OpenAI-compatible vendors the Chat dialect serves.
 * @module
 */
import { defineProvider, PLACEHOLDER_KEY, type Route } from '../dialect.js'
import { openaiChat } from '../openai-chat/codec.js'
import { openaiEmbeddings } from '../openai-embeddings/codec.js'
import { openaiModels } from '../openai-models/codec.js'
import { openaiResponses } from '../openai-responses/codec.js'

// Both `/v1/x` and `/x`: clients disagree on whether the base URL carries `/v1`.
const routes: Record<string, Route> = {}
for (const [path, method, dialect] of [
  ['chat/completions', 'POST', openaiChat],
  ['responses', 'POST', openaiResponses],
  ['embeddings', 'POST', openaiEmbeddings],
  ['models', 'GET', openaiModels],
] as const) {
  routes[`/v1/${path}`] = routes[`/${path}`] = { method, dialect }
}

/** OpenAI and the OpenAI-compatible vendors (served by the Chat dialect on the fake's `/v1`). */
export const openaiProvider = defineProvider({
  name: 'OpenAI',
  // openai-realtime: the Realtime API's WebSocket transport (its session is the server's, its events the wire's).
  dialectNames: ['openai-chat', 'openai-responses', 'openai-embeddings', 'openai-models', 'openai-realtime'],
  dialects: [openaiChat, openaiResponses, openaiEmbeddings, openaiModels],
  routes,
  hosts: [
    { host: 'api.openai.com' },
    { host: 'api.mistral.ai', openAiBase: ['/v1'] },
    { host: 'codestral.mistral.ai', openAiBase: ['/v1'] },
    { host: 'api.groq.com', openAiBase: ['/openai/v1'] },
    // DeepSeek and Perplexity document a base URL without `/v1`.
    { host: 'api.deepseek.com', openAiBase: ['/v1', ''] },
    { host: 'api.x.ai', openAiBase: ['/v1'] },
    { host: 'openrouter.ai', openAiBase: ['/api/v1'] },
    { host: 'api.together.xyz', openAiBase: ['/v1'] },
    { host: 'api.together.ai', openAiBase: ['/v1'] },
    { host: 'api.fireworks.ai', openAiBase: ['/inference/v1'] },
    { host: 'api.perplexity.ai', openAiBase: ['/v1', ''] },
    // Cohere's own API (`/v2/chat`) is not served by the fake; its OpenAI-compatible one is.
    { host: 'api.cohere.com', openAiBase: ['/compatibility/v1'] },
    { host: 'api.cohere.ai', openAiBase: ['/compatibility/v1'] },
  ],
  env: (url) => ({
    // openai (and the AI SDK's OpenAI provider): appends /chat/completions, /responses…
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_API_KEY: PLACEHOLDER_KEY,
    // OpenAI-compatible vendors' clients, served by the OpenAI Chat dialect.
    DEEPSEEK_API_KEY: PLACEHOLDER_KEY,
    MISTRAL_API_KEY: PLACEHOLDER_KEY,
    GROQ_API_KEY: PLACEHOLDER_KEY,
    XAI_API_KEY: PLACEHOLDER_KEY,
  }),
})
