/**
 * Ollama as one provider (SPEC §21): its `/api/…` routes. It runs locally, so it has no host to guard.
 * @module
 */
import { defineProvider } from '../dialect.js'
import { ollamaChat, ollamaEmbed, ollamaGenerate, ollamaTags } from './codec.js'

/** Ollama: `/api/chat`, `/api/generate`, `/api/embed` (and the older `/api/embeddings`), `/api/tags`. */
export const ollamaProvider = defineProvider({
  name: 'Ollama',
  dialectNames: ['ollama-chat', 'ollama-generate', 'ollama-embed', 'ollama-tags'],
  dialects: [ollamaChat, ollamaGenerate, ollamaEmbed, ollamaTags],
  routes: {
    '/api/chat': { method: 'POST', dialect: ollamaChat },
    '/api/generate': { method: 'POST', dialect: ollamaGenerate },
    '/api/embed': { method: 'POST', dialect: ollamaEmbed },
    '/api/embeddings': { method: 'POST', dialect: ollamaEmbed },
    '/api/tags': { method: 'GET', dialect: ollamaTags },
  },
  unknownPath: (path) => (path.startsWith('/api/') ? ollamaChat : undefined),
  hosts: [],
  // ollama (the JS client) and the Ollama CLI: append /api/…
  env: (url) => ({ OLLAMA_HOST: url }),
})
