/**
 * Ollama's field types (SPEC §24): Ollama decodes a request into Go structs, so an object as a
 * message's `content` or a number sent as a string is its 400 `json: cannot unmarshal object
 * into Go struct field Message.messages.content of type string`, not a 200.
 * @module
 */
import { BadRequest } from '../dialect.js'
import { checkShape, jsonKind, type Shape } from '../shape.js'

const options: Shape = {
  fields: { temperature: 'number', num_predict: 'integer', top_p: 'number', top_k: 'integer', seed: 'integer', num_ctx: 'integer', stop: { array: 'string' } },
}
// `model`, `stream`, `format`, `prompt` and embedding inputs keep the decoder's own messages.
const common = {
  options,
  keep_alive: { either: ['string', 'number'] },
  think: { either: ['boolean', 'string'] },
} as const satisfies Record<string, Shape>
const message: Shape = {
  fields: {
    role: 'string',
    content: 'string',
    thinking: 'string',
    images: { array: 'string' },
    tool_calls: { array: { fields: { function: { fields: { name: 'string', arguments: 'object' } } } } },
    tool_name: 'string',
    tool_call_id: 'string',
  },
}

/** The routes' request shapes, by Ollama's Go struct name. */
const requests = {
  ChatRequest: { fields: { ...common, messages: { array: message }, tools: { array: 'object' } } },
  GenerateRequest: { fields: { ...common, suffix: 'string', system: 'string', template: 'string', images: { array: 'string' }, raw: 'boolean' } },
  EmbedRequest: { fields: { ...common, truncate: 'boolean', dimensions: 'integer' } },
} as const satisfies Record<string, Shape>

const GO_TYPES: Readonly<Record<string, string>> = { string: 'string', integer: 'int', number: 'float64', boolean: 'bool', object: 'map[string]interface {}', array: '[]interface {}' }

/**
 * Throws Ollama's unmarshal error for the first field of the wrong type in a request to `route`.
 * @throws {BadRequest} a field of `json` does not have Ollama's type.
 */
export function checkOllamaFields(json: Record<string, unknown>, route: keyof typeof requests): void {
  const found = checkShape(json, requests[route])
  if (!found) return
  const names = found.path.filter((segment): segment is string => typeof segment === 'string')
  const struct = names.length > 1 && names[0] === 'messages' ? 'Message' : route
  const goType = GO_TYPES[found.expected] ?? found.expected
  throw new BadRequest(`json: cannot unmarshal ${jsonKind(found.value)} into Go struct field ${struct}.${names.join('.')} of type ${goType}`, names.join('.'))
}
