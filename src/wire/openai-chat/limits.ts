/**
 * OpenAI's 400 for a token limit over the model's maximum output (SPEC §20): worded as the API
 * words it, naming the field the client sent (`max_completion_tokens` or `max_tokens`; the
 * Responses API's `max_output_tokens`), with `code: 'invalid_value'`.
 * @module
 */
import { BadRequest } from '../dialect.js'

/** OpenAI's error for `requested` output tokens where the model allows `max`, on field `param`. */
export function openaiOutputLimitError(param: string, requested: number, max: number): BadRequest {
  return new BadRequest(`${param} is too large: ${requested}. This model supports at most ${max} completion tokens, whereas you provided ${requested}.`, param, {
    code: 'invalid_value',
    type: 'invalid_request_error',
  })
}

/** Chat's: the field is the one the request carries (`max_completion_tokens` wins, as in decoding). */
export function chatOutputLimitError(json: Record<string, unknown>, requested: number, max: number): BadRequest {
  return openaiOutputLimitError(json.max_completion_tokens !== undefined && json.max_completion_tokens !== null ? 'max_completion_tokens' : 'max_tokens', requested, max)
}
