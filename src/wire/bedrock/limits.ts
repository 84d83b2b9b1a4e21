/**
 * Bedrock's `ValidationException` (400) for a token limit over the model's maximum output
 * (SPEC §20): Converse's `inferenceConfig.maxTokens` and InvokeModel's `max_tokens`, worded as
 * AWS words it.
 * @module
 */
import { BadRequest } from '../dialect.js'

/** Converse's error for `requested` output tokens where the model allows `max`. */
export function converseOutputLimitError(_json: Record<string, unknown>, requested: number, max: number): BadRequest {
  return new BadRequest(
    `The maximum tokens you requested exceeds the model limit of ${max}. Try again with a maximum tokens value that is lower than ${max}.`,
    'inferenceConfig.maxTokens',
  )
}

/** InvokeModel's (an Anthropic body): Anthropic's wording, carried in a `ValidationException`. */
export function invokeOutputLimitError(_json: Record<string, unknown>, requested: number, max: number, model: string): BadRequest {
  return new BadRequest(`max_tokens: ${requested} > ${max}, which is the maximum allowed number of output tokens for ${model}`, 'max_tokens')
}
