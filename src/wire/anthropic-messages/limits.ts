/**
 * Anthropic's 400 for `max_tokens` over the model's maximum output (SPEC §20), worded as the
 * API words it: `max_tokens: 100000 > 64000, which is the maximum allowed number of output
 * tokens for claude-sonnet-4-5`.
 * @module
 */
import { BadRequest } from '../dialect.js'

/** Anthropic's error for `requested` output tokens where `model` allows `max`. */
export function anthropicOutputLimitError(_json: Record<string, unknown>, requested: number, max: number, model: string): BadRequest {
  return new BadRequest(`max_tokens: ${requested} > ${max}, which is the maximum allowed number of output tokens for ${model}`, 'max_tokens')
}
