/**
 * Azure OpenAI as one provider (SPEC §21): OpenAI's dialects on Azure's paths, and its hosts.
 * @module
 */
import { defineProvider, PLACEHOLDER_KEY, type Route } from '../dialect.js'
import { openaiChat } from '../openai-chat/codec.js'
import { openaiEmbeddings } from '../openai-embeddings/codec.js'
import { openaiModels } from '../openai-models/codec.js'
import { openaiResponses } from '../openai-responses/codec.js'
import { AZURE_DEPLOYMENT_PATH, AZURE_OPENAI_PATH, onAzure } from './codec.js'

/** The OpenAI dialects on Azure's paths: by operation, on a versioned (`/openai/v1/…`) path or not. */
const azure = {
  'chat/completions': { versioned: onAzure(openaiChat, true), dated: onAzure(openaiChat, false), method: 'POST' },
  embeddings: { versioned: onAzure(openaiEmbeddings, true), dated: onAzure(openaiEmbeddings, false), method: 'POST' },
  responses: { versioned: onAzure(openaiResponses, true), dated: onAzure(openaiResponses, false), method: 'POST' },
  models: { versioned: onAzure(openaiModels, true), dated: onAzure(openaiModels, false), method: 'GET' },
} as const

function azureRoute(operation: string, versioned: boolean): Route {
  const entry = azure[(operation.startsWith('models') ? 'models' : operation) as keyof typeof azure]
  return { method: entry.method, dialect: versioned ? entry.versioned : entry.dated }
}

/** Azure OpenAI: `/openai/deployments/{name}/…` (dated `api-version`) and `/openai/v1/…`. */
export const azureProvider = defineProvider({
  name: 'Azure OpenAI',
  // OpenAI's dialects, by their own names, on Azure's paths.
  dialectNames: [],
  dialects: Object.values(azure).flatMap((entry) => [entry.versioned, entry.dated]),
  patterns: [
    {
      path: AZURE_DEPLOYMENT_PATH,
      route: (match) => azureRoute(match[2], false),
      examples: ['/openai/deployments/d/chat/completions', '/openai/deployments/d/embeddings', '/openai/deployments/d/responses'],
    },
    {
      path: AZURE_OPENAI_PATH,
      route: (match) => azureRoute(match[2], match[1] !== undefined),
      examples: ['/openai/v1/chat/completions', '/openai/v1/responses', '/openai/v1/embeddings', '/openai/v1/models', '/openai/models'],
    },
  ],
  unknownPath: (path) => (path.startsWith('/openai/') ? azure['chat/completions'].dated : undefined),
  hosts: [{ host: '*.openai.azure.com' }, { host: '*.cognitiveservices.azure.com' }, { host: '*.services.ai.azure.com' }],
  env: (url) => ({
    // openai's AzureOpenAI: appends /openai/…
    AZURE_OPENAI_ENDPOINT: url,
    AZURE_OPENAI_API_KEY: PLACEHOLDER_KEY,
    OPENAI_API_VERSION: '2024-10-21',
    // The AI SDK's Azure provider reads this key name.
    AZURE_API_KEY: PLACEHOLDER_KEY,
  }),
})
