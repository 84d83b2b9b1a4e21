/**
 * Amazon Bedrock as one provider (SPEC §21): `/model/{id}/{operation}` and its runtime hosts.
 * @module
 */
import { defineProvider, PLACEHOLDER_KEY, type WireDialect } from '../dialect.js'
import { decodeSegment } from '../params.js'
import { BEDROCK_MODEL_PATH, bedrockConverse } from './converse.js'
import { bedrockCountTokens } from './count-tokens.js'
import { bedrockEmbed, isEmbeddingModel } from './embed.js'
import { bedrockInvoke } from './invoke.js'

/** Converse, or InvokeModel on an embedding model, or InvokeModel on an Anthropic one. */
function bedrockDialect(operation: string, modelId: string): WireDialect {
  if (operation === 'count-tokens') return bedrockCountTokens
  if (operation.startsWith('converse')) return bedrockConverse
  return operation === 'invoke' && isEmbeddingModel(modelId) ? bedrockEmbed : bedrockInvoke
}

/** Bedrock Runtime: Converse, ConverseStream, InvokeModel (with its stream) and CountTokens. */
export const bedrockProvider = defineProvider({
  name: 'Bedrock',
  dialectNames: ['bedrock-converse', 'bedrock-invoke', 'bedrock-embed', 'bedrock-count-tokens'],
  dialects: [bedrockConverse, bedrockInvoke, bedrockEmbed, bedrockCountTokens],
  patterns: [
    {
      path: BEDROCK_MODEL_PATH,
      route: (match) => ({ method: 'POST', dialect: bedrockDialect(match[2], decodeSegment(match[1])) }),
      examples: [
        ...['converse', 'converse-stream', 'invoke', 'invoke-with-response-stream', 'count-tokens'].map((operation) => `/model/anthropic.claude-3-haiku/${operation}`),
        '/model/amazon.titan-embed-text-v2:0/invoke',
      ],
    },
  ],
  unknownPath: (path) => (path.startsWith('/model/') ? bedrockConverse : undefined),
  hosts: [{ host: 'bedrock-runtime.*.amazonaws.com' }, { host: 'bedrock-runtime-fips.*.amazonaws.com' }, { host: 'bedrock-runtime.*.amazonaws.com.cn' }],
  env: (url) => ({
    // @aws-sdk/client-bedrock-runtime (and the AI SDK's Bedrock provider through it): SigV4 is
    // accepted, not verified, so placeholder credentials do.
    AWS_ENDPOINT_URL_BEDROCK_RUNTIME: url,
    AWS_ACCESS_KEY_ID: 'AKIAAGENTDOUBLES0000',
    AWS_SECRET_ACCESS_KEY: PLACEHOLDER_KEY,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
  }),
})
