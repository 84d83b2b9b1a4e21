/**
 * Gemini's 400 (`INVALID_ARGUMENT`) for `generationConfig.maxOutputTokens` over the model's
 * maximum output (SPEC §20), worded as the API words it: the supported range, its upper end
 * exclusive.
 * @module
 */
import { BadRequest } from '../dialect.js'

/** Gemini's error for `requested` output tokens where the model allows `max`. */
export function geminiOutputLimitError(_json: Record<string, unknown>, requested: number, max: number): BadRequest {
  return new BadRequest(
    `Unable to submit request because it has a maxOutputTokens value of ${requested} but the supported range is from 1 (inclusive) to ${max + 1} (exclusive). Update the value and try again.`,
    'generationConfig.maxOutputTokens',
  )
}
