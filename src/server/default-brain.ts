/**
 * The brain a FakeProxy answers with when it was given no `LLM`. It obeys what the request
 * forces (SPEC §10.4): a forced tool choice gets a call of that tool with arguments its JSON
 * Schema accepts, a requested JSON schema gets a value it accepts, anything else a short
 * canned reply.
 * @module
 */
import type { LLM, ModelRequest, ModelResponse, Part, StreamEvent, ToolDefinition } from '../llm/types.js'
import { estimatedUsage } from '../llm/usage.js'
import { BadRequest } from '../wire/dialect.js'
import { SchemaTooLarge, valueFor } from './schema-values.js'

/** The text of the canned reply. */
export const CANNED_REPLY = 'Hello from FakeProxy.'

/**
 * The id of the default brain's tool call, in the form doubles give calls without an id; the
 * proxy turns it into the carrying dialect's format (`call_…`, `toolu_…`).
 */
const TOOL_CALL_ID = 'call_1_1'

/** The default brain: answers every request the same way, streamed in a few deltas. */
export const defaultBrain: LLM = {
  async generate(request: ModelRequest): Promise<ModelResponse> {
    return defaultResponse(request)
  },
  async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    // Built before the first event, so a schema that cannot fit is a 400, not a broken stream.
    const response = defaultResponse(request)
    for (const part of response.content) {
      if (part.type === 'tool-call') yield { type: 'tool-call', id: part.id, name: part.name, args: part.args }
      else if (part.type === 'text') {
        const middle = Math.ceil(part.text.length / 2)
        for (const piece of [part.text.slice(0, middle), part.text.slice(middle)]) if (piece) yield { type: 'text-delta', text: piece }
      }
    }
    yield { type: 'finish', response }
  },
}

/**
 * The default answer to `request`.
 * @throws {BadRequest} a forced tool's or the requested schema's minimums do not fit the bounds.
 */
function defaultResponse(request: ModelRequest): ModelResponse {
  const tool = forcedTool(request)
  const content: Part[] = tool
    ? [{ type: 'tool-call', id: TOOL_CALL_ID, name: tool.name, args: generated(tool.parameters, `tools[${tool.name}].parameters`) }]
    : [{ type: 'text', text: request.responseFormat ? JSON.stringify(generated(request.responseFormat.schema ?? {}, 'response schema')) : CANNED_REPLY }]
  const produced = tool ? JSON.stringify(content[0].type === 'tool-call' ? content[0].args : {}) : (content[0] as { text: string }).text
  return {
    content,
    finishReason: tool ? 'tool-calls' : 'stop',
    // Estimates: a FakeProxy counts both again with the model's tokenizer.
    usage: estimatedUsage(countTokens(request), Math.max(1, Math.ceil(produced.length / 4))),
    model: request.model,
  }
}

/** The tool the request forces: the named one, or the first when any tool must be called. */
function forcedTool(request: ModelRequest): ToolDefinition | undefined {
  const tools = request.tools ?? []
  const choice = request.toolChoice
  if (choice === 'required') return tools[0]
  if (choice && typeof choice === 'object') return tools.find((tool) => tool.name === choice.name)
  return undefined
}

function generated(schema: unknown, what: string): unknown {
  try {
    return valueFor(schema)
  } catch (error) {
    if (error instanceof SchemaTooLarge) {
      const hint = /steps|ms to answer/.test(error.message) ? 'simplify its anyOf/oneOf/$ref combinations' : 'lower its minItems/minLength/minProperties'
      throw new BadRequest(`${what}: ${error.message}; ${hint}`, error.path)
    }
    throw error
  }
}

/** A rough token count of the request's text (about four characters a token). */
function countTokens(request: ModelRequest): number {
  let chars = request.system?.length ?? 0
  for (const message of request.messages) {
    for (const part of message.content) if (part.type === 'text') chars += part.text.length
  }
  return Math.max(1, Math.ceil(chars / 4))
}
