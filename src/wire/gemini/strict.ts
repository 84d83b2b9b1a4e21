/**
 * Gemini's field types (SPEC §24): `text: { toString: 1 }`, a number sent as a string, a role
 * that is not a string is the API's 400 `INVALID_ARGUMENT` ("Invalid value at
 * 'contents[0].parts[0].text' (TYPE_STRING)"), as the real API answers a proto type mismatch.
 * @module
 */
import { BadRequest } from '../dialect.js'
import { checkShape, fieldPath, quoteValue, type Shape } from '../shape.js'

const call: Shape = { fields: { id: 'string', name: 'string', args: 'object' } }
const response: Shape = { fields: { id: 'string', name: 'string', response: 'object' } }
const part: Shape = {
  fields: {
    text: 'string',
    thought: 'boolean',
    functionCall: call,
    function_call: call,
    functionResponse: response,
    function_response: response,
    inlineData: { fields: { mimeType: 'string', data: 'string' } },
    inline_data: { fields: { mime_type: 'string', data: 'string' } },
    fileData: 'object',
    file_data: 'object',
  },
}
const content: Shape = { fields: { role: 'string', parts: { array: part } } }
const generationConfig = (snake: boolean): Shape => ({
  fields: {
    // `temperature` and the token limit keep the decoder's own range messages.
    topP: 'number',
    topK: 'number',
    candidateCount: 'integer',
    presencePenalty: 'number',
    frequencyPenalty: 'number',
    seed: 'integer',
    stopSequences: { array: 'string' },
    responseMimeType: 'string',
    ...(snake ? { top_p: 'number', top_k: 'number', stop_sequences: { array: 'string' }, response_mime_type: 'string' } : {}),
  },
})
const generate: Shape = {
  fields: {
    contents: { array: content },
    systemInstruction: { either: ['string', content] },
    system_instruction: { either: ['string', content] },
    tools: { array: 'object' },
    toolConfig: 'object',
    tool_config: 'object',
    generationConfig: generationConfig(false),
    generation_config: generationConfig(true),
    safetySettings: { array: 'object' },
    cachedContent: 'string',
  },
}

const PROTO_TYPES: Readonly<Record<string, string>> = { string: 'TYPE_STRING', integer: 'TYPE_INT32', number: 'TYPE_FLOAT', boolean: 'TYPE_BOOL' }

/**
 * Throws Gemini's `INVALID_ARGUMENT` for the first `generateContent` field of the wrong type.
 * @throws {BadRequest} a field of `json` does not have Gemini's type.
 */
export function checkGenerateFields(json: Record<string, unknown>): void {
  const found = checkShape(json, generate)
  if (!found) return
  const at = fieldPath(found.path)
  const type = PROTO_TYPES[found.expected] ?? found.expected
  throw new BadRequest(`Invalid value at '${at}' (${type}), ${quoteValue(found.value)}`, at)
}
