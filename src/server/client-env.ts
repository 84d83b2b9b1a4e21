/**
 * `fakeProxy.env` (SPEC §17): the environment variables that point every supported client at
 * one proxy or lane, with placeholder keys, for a runtime spawned in a process of its own
 * (`spawn(cmd, { env: { ...process.env, ...fakeProxy.env } })`).
 * @module
 */

/**
 * A key no provider issues: clients that refuse to start without one get it, and a request
 * that somehow left the machine would be refused by the real API.
 */
export const PLACEHOLDER_KEY = 'agent-doubles-placeholder-key'

/**
 * The variables for the proxy or lane at `url` (`http://127.0.0.1:<port>` or its `/~<id>`).
 * Each name is one a client of SPEC §5.1 or §12 reads (checked in the clients' sources):
 * base URLs end where each client appends its own path.
 */
export function clientEnv(url: string): Record<string, string> {
  return {
    // openai (and the AI SDK's OpenAI provider): appends /chat/completions, /responses…
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_API_KEY: PLACEHOLDER_KEY,
    // @anthropic-ai/sdk, the AI SDK's Anthropic provider and Claude Code: append /v1/messages.
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: PLACEHOLDER_KEY,
    // Claude Code sends it as a bearer token; the fake accepts either.
    ANTHROPIC_AUTH_TOKEN: PLACEHOLDER_KEY,
    // @google/genai and Gemini CLI: append /v1beta/models/…
    GOOGLE_GEMINI_BASE_URL: url,
    GEMINI_API_KEY: PLACEHOLDER_KEY,
    GOOGLE_API_KEY: PLACEHOLDER_KEY,
    // The AI SDK's Google provider reads this key name.
    GOOGLE_GENERATIVE_AI_API_KEY: PLACEHOLDER_KEY,
    // ollama (the JS client) and the Ollama CLI: append /api/…
    OLLAMA_HOST: url,
    // openai's AzureOpenAI: appends /openai/…
    AZURE_OPENAI_ENDPOINT: url,
    AZURE_OPENAI_API_KEY: PLACEHOLDER_KEY,
    OPENAI_API_VERSION: '2024-10-21',
    // The AI SDK's Azure provider reads this key name.
    AZURE_API_KEY: PLACEHOLDER_KEY,
    // @aws-sdk/client-bedrock-runtime (and the AI SDK's Bedrock provider through it): SigV4 is
    // accepted, not verified, so placeholder credentials do.
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: url,
    AWS_ACCESS_KEY_ID: 'AKIAAGENTDOUBLES0000',
    AWS_SECRET_ACCESS_KEY: PLACEHOLDER_KEY,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    // OpenAI-compatible vendors' clients, served by the OpenAI Chat dialect.
    DEEPSEEK_API_KEY: PLACEHOLDER_KEY,
    MISTRAL_API_KEY: PLACEHOLDER_KEY,
    GROQ_API_KEY: PLACEHOLDER_KEY,
    XAI_API_KEY: PLACEHOLDER_KEY,
  }
}
