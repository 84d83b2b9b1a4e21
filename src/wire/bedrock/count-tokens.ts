/**
 * Bedrock's `CountTokens` (`POST /model/{modelId}/count-tokens`, SPEC §20): the input of a
 * Converse request (`{ input: { converse: { messages, system, toolConfig } } }`) or of an
 * InvokeModel one (`{ input: { invokeModel: { body } } }`, the body base64), answered with
 * `{ inputTokens }` — what the same prompt reports as its input.
 * @module
 */
import { fromBase64 } from '../../internal/bytes.js'
import { BadRequest, record, type DirectDialect } from '../dialect.js'
import { countPrompt } from '../prompt-count.js'
import { bedrockConverse, bedrockTarget } from './converse.js'
import { bedrockErrorAnswer } from './errors.js'
import { bedrockInvoke } from './invoke.js'
import { anthropicMessages } from '../anthropic-messages/codec.js'

/** The request a CountTokens body counts: a Converse body, or an InvokeModel (Anthropic) body. */
function counted(json: Record<string, unknown>): { kind: 'converse' | 'invoke'; body: Record<string, unknown> } {
  const input = record(json.input)
  if (input.converse !== undefined) return { kind: 'converse', body: record(input.converse) }
  if (input.invokeModel !== undefined) {
    const raw = record(input.invokeModel).body
    if (typeof raw !== 'string') throw new BadRequest('input.invokeModel.body must be a base64 blob')
    let body: unknown
    try {
      body = JSON.parse(new TextDecoder().decode(fromBase64(raw)))
    } catch {
      throw new BadRequest('The provided request is not valid: input.invokeModel.body is not JSON')
    }
    return { kind: 'invoke', body: record(body) }
  }
  throw new BadRequest('The provided request is not valid: input must have converse or invokeModel')
}

/** `POST /model/{modelId}/count-tokens`. */
export const bedrockCountTokens: DirectDialect = {
  id: 'bedrock-count-tokens',
  kind: 'direct',
  errorStyle: 'openai',
  needs: [],
  modelTraffic: false,
  errorAnswer: bedrockErrorAnswer,
  decode: (json, target) => {
    const { modelId } = bedrockTarget(target)
    const { kind, body } = counted(json)
    const request = kind === 'converse' ? bedrockConverse.decode(body, { ...target!, path: `/model/${encodeURIComponent(modelId)}/converse` }) : anthropicMessages.decode({ max_tokens: 1, ...body, model: modelId })
    return { ...request, model: modelId, stream: false }
  },
  answer: async (request, context) => {
    const { kind, body } = counted(context.json)
    const result = await countPrompt('tokenizer', kind === 'converse' ? bedrockConverse : bedrockInvoke, body, request)
    return { inputTokens: result.input }
  },
}
