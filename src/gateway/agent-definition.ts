/**
 * Validates an agent definition and puts it in the form the proxy stores: the schema's field
 * names, defaults filled, empty fields dropped. Unlike the real proxy, long prompts keep their
 * text (it stores them apart).
 * @module
 */
import { AGENT_NAME } from './identity.js'
import type { AgentDefinition } from '../server/types.js'

/** Why a definition is invalid: the message of the `definition_invalid` refusal. */
export class DefinitionProblem {
  constructor(readonly message: string) {}
}

/** The parameters a tool gets when its definition gives none: a function taking no arguments. */
const DEFAULT_TOOL_PARAMETERS = Object.freeze({ type: 'object', properties: {} })

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Empty values are dropped from stored definitions, as the proxy drops them. */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  return isPlainObject(value) && Object.keys(value).length === 0
}

function problem(message: string): DefinitionProblem {
  return new DefinitionProblem(`invalid agent definition: ${message}`)
}

/** One tool, as `{ name, description?, parameters }`; a bare string is a tool's name. */
function normaliseTool(tool: unknown, index: number): Record<string, unknown> | DefinitionProblem {
  const fields = typeof tool === 'string' ? { name: tool } : tool
  if (!isPlainObject(fields) || typeof fields.name !== 'string' || fields.name === '') {
    return problem(`tools[${index}] must be a tool name or an object with a string "name"`)
  }
  if (fields.description !== undefined && typeof fields.description !== 'string') {
    return problem(`tools[${index}].description must be a string`)
  }
  if (fields.parameters !== undefined && !isPlainObject(fields.parameters)) {
    return problem(`tools[${index}].parameters must be a JSON schema object`)
  }
  const normalised: Record<string, unknown> = { ...fields, parameters: fields.parameters ?? DEFAULT_TOOL_PARAMETERS }
  for (const [key, value] of Object.entries(normalised)) if (isEmpty(value) && key !== 'parameters') delete normalised[key]
  return normalised
}

function stringList(value: unknown, field: string, valid: (item: string) => boolean, expected: string): string[] | DefinitionProblem {
  if (!Array.isArray(value)) return problem(`${field} must be an array of ${expected}`)
  for (const [index, item] of value.entries()) {
    if (typeof item !== 'string' || !valid(item)) return problem(`${field}[${index}] must be ${expected}, got ${JSON.stringify(item)}`)
  }
  return [...new Set(value as string[])]
}

/**
 * The definition as the proxy stores it, or the problem that makes it invalid.
 * @example
 * normaliseDefinition({ model: 'gpt-5', skills: [] }) // { model: 'gpt-5' }
 */
export function normaliseDefinition(input: unknown): AgentDefinition | DefinitionProblem {
  if (!isPlainObject(input)) return problem('the body must be a JSON object')
  if (typeof input.model !== 'string' || input.model.trim() === '') return problem('"model" must be a non-empty string')
  const out: Record<string, unknown> = { ...input }
  if (input.instructions !== undefined && input.instructions !== null && typeof input.instructions !== 'string') {
    return problem('"instructions" must be text')
  }
  if (input.memory !== undefined && input.memory !== null && typeof input.memory !== 'string') {
    return problem('"memory" must be the CID of stored instructions (a string)')
  }
  if (input.skills !== undefined && input.skills !== null) {
    const skills = stringList(input.skills, 'skills', (cid) => cid !== '', 'skill CIDs')
    if (skills instanceof DefinitionProblem) return skills
    out.skills = skills
  }
  if (input.subagents !== undefined && input.subagents !== null) {
    const subagents = stringList(input.subagents, 'subagents', (name) => AGENT_NAME.test(name), `agent names matching ${AGENT_NAME}`)
    if (subagents instanceof DefinitionProblem) return subagents
    out.subagents = subagents
  }
  if (input.tools !== undefined && input.tools !== null) {
    if (!Array.isArray(input.tools)) return problem('"tools" must be an array')
    const tools: Record<string, unknown>[] = []
    for (const [index, tool] of input.tools.entries()) {
      const normalised = normaliseTool(tool, index)
      if (normalised instanceof DefinitionProblem) return normalised
      tools.push(normalised)
    }
    out.tools = tools
  }
  for (const [key, value] of Object.entries(out)) if (isEmpty(value)) delete out[key]
  return out as AgentDefinition
}
