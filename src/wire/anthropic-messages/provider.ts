/**
 * Anthropic's API as one provider (SPEC §21): the Messages and token-count routes and its host.
 * @module
 */
import { defineProvider, PLACEHOLDER_KEY } from '../dialect.js'
import { anthropicMessages } from './codec.js'
import { anthropicCountTokens } from './count-tokens.js'

/** Anthropic: `/v1/messages` (and `/messages`, which the AI SDK's provider appends) and `count_tokens`. */
export const anthropicProvider = defineProvider({
  name: 'Anthropic',
  dialectNames: ['anthropic-messages', 'anthropic-count-tokens'],
  dialects: [anthropicMessages, anthropicCountTokens],
  routes: {
    '/v1/messages': { method: 'POST', dialect: anthropicMessages },
    '/messages': { method: 'POST', dialect: anthropicMessages },
    '/v1/messages/count_tokens': { method: 'POST', dialect: anthropicCountTokens },
    '/messages/count_tokens': { method: 'POST', dialect: anthropicCountTokens },
  },
  hosts: [{ host: 'api.anthropic.com' }],
  env: (url) => ({
    // @anthropic-ai/sdk, the AI SDK's Anthropic provider and Claude Code: append /v1/messages.
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: PLACEHOLDER_KEY,
    // Claude Code sends it as a bearer token; the fake accepts either.
    ANTHROPIC_AUTH_TOKEN: PLACEHOLDER_KEY,
  }),
})
