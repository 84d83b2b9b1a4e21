/**
 * The Gemini API as one provider (SPEC §21): its model-method and model-list routes and its host.
 * @module
 */
import { defineProvider, PLACEHOLDER_KEY } from '../dialect.js'
import { GEMINI_METHOD_PATH, GEMINI_MODELS_ROUTE, geminiCountTokens, geminiEmbed, geminiGenerate, geminiModels } from './codec.js'

/** Gemini: `/v1beta/models/{model}:{method}` and the model list. */
export const geminiProvider = defineProvider({
  name: 'Gemini',
  // gemini-live: the Live API's WebSocket transport (its session is the server's, its frames the wire's).
  dialectNames: ['gemini-generate', 'gemini-count-tokens', 'gemini-embed', 'gemini-models', 'gemini-live'],
  dialects: [geminiGenerate, geminiCountTokens, geminiEmbed, geminiModels],
  patterns: [
    {
      path: GEMINI_METHOD_PATH,
      route: (match) => {
        if (match[2] === 'countTokens') return { method: 'POST', dialect: geminiCountTokens }
        if (match[2] === 'embedContent' || match[2] === 'batchEmbedContents') return { method: 'POST', dialect: geminiEmbed }
        return { method: 'POST', dialect: geminiGenerate }
      },
      examples: ['generateContent', 'streamGenerateContent', 'countTokens', 'embedContent', 'batchEmbedContents'].map((method) => `/v1beta/models/gemini-2.5-flash:${method}`),
    },
    { path: GEMINI_MODELS_ROUTE, route: () => ({ method: 'GET', dialect: geminiModels }), examples: ['/v1beta/models'] },
  ],
  unknownPath: (path) => (path.startsWith('/v1beta/') ? geminiGenerate : undefined),
  hosts: [{ host: 'generativelanguage.googleapis.com' }],
  env: (url) => ({
    // @google/genai and Gemini CLI: append /v1beta/models/…
    GOOGLE_GEMINI_BASE_URL: url,
    GEMINI_API_KEY: PLACEHOLDER_KEY,
    GOOGLE_API_KEY: PLACEHOLDER_KEY,
    // The AI SDK's Google provider reads this key name.
    GOOGLE_GENERATIVE_AI_API_KEY: PLACEHOLDER_KEY,
  }),
})
