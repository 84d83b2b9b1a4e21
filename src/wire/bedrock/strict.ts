/**
 * Bedrock Converse's field types (SPEC §24): an object where a string belongs (`role`,
 * `toolUseId`), a number sent as a string, or no messages at all is Bedrock's 400
 * `ValidationException`, not a crash of the decoder.
 * @module
 */
import { BadRequest } from '../dialect.js'
import { checkShape, fieldPath, quoteValue, type Shape } from '../shape.js'

const block: Shape = {
  fields: {
    text: 'string',
    toolUse: { fields: { toolUseId: 'string', name: 'string', input: 'any' }, required: ['toolUseId', 'name'] },
    toolResult: { fields: { toolUseId: 'string', content: { array: 'object' }, status: 'string' }, required: ['toolUseId'] },
    image: { fields: { format: 'string', source: { fields: { bytes: 'string' } } } },
    reasoningContent: 'object',
  },
}

const converse: Shape = {
  fields: {
    messages: { array: { fields: { role: 'string', content: { array: block } }, required: ['role', 'content'] }, nonEmpty: true },
    system: { array: { fields: { text: 'string' } } },
    inferenceConfig: { fields: { maxTokens: 'integer', temperature: 'number', topP: 'number', stopSequences: { array: 'string' } } },
    toolConfig: {
      fields: {
        tools: { array: { fields: { toolSpec: { fields: { name: 'string', description: 'string', inputSchema: { fields: { json: 'object' } } } } } } },
        toolChoice: 'object',
      },
    },
    additionalModelRequestFields: 'object',
  },
}

/** AWS names a list member `messages.1.member` (1-based). */
function awsPath(path: readonly (string | number)[]): string {
  return path.map((segment) => (typeof segment === 'number' ? `${segment + 1}.member` : segment)).join('.')
}

/**
 * Throws Bedrock's `ValidationException` for the first Converse field of the wrong type.
 * @throws {BadRequest} a field of `json` does not have Converse's type.
 */
export function checkConverseFields(json: Record<string, unknown>): void {
  const found = checkShape(json, converse)
  if (!found) return
  const at = awsPath(found.path)
  if (found.expected === 'non-empty array') {
    throw new BadRequest(`1 validation error detected: Value '[]' at '${at}' failed to satisfy constraint: Member must have length greater than or equal to 1`, fieldPath(found.path))
  }
  const constraint = found.expected === 'present' ? 'Member must not be null' : `Member must be ${/^[aeiou]/.test(found.expected) ? 'an' : 'a'} ${found.expected}`
  const value = found.expected === 'present' ? 'null' : `'${quoteValue(found.value)}'`
  throw new BadRequest(`1 validation error detected: Value ${value} at '${at}' failed to satisfy constraint: ${constraint}`, fieldPath(found.path))
}
