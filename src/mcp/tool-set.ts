/**
 * The tools a FakeMcpServer serves: their definitions (checked when declared), what
 * `tools/list` shows, the arguments check a call goes through, and each tool's list cursor.
 * @module
 */
import type { ResolveState } from '../agent/resolve.js'
import { isStandardSchema, formatIssues, validateWithSchema, type StandardSchemaV1 } from '../agent/standard-schema.js'
import { argumentError, checkOptions, describeValue, is, PREFIX } from '../internal/describe.js'
import type { McpJsonSchema, McpToolDefinition } from './types.js'

/** A compiled JSON Schema check (the SDK's Ajv validator, injected at start). */
export type JsonSchemaCheck = (value: unknown) => { valid: boolean; errorMessage?: string }

/** Compiles a JSON Schema into a {@link JsonSchemaCheck}. */
export type JsonSchemaCompiler = (schema: McpJsonSchema) => JsonSchemaCheck

/** A tool as `tools/list` shows it. */
export interface ListedTool {
  name: string
  title?: string
  description?: string
  inputSchema: McpJsonSchema
  annotations?: Record<string, unknown>
}

/** One declared tool and the state its calls move. */
export interface ToolEntry {
  readonly name: string
  readonly definition: McpToolDefinition
  /** What `tools/list` shows for it. */
  readonly listed: ListedTool
  /** The list cursor of its `responses`. */
  readonly cursor: ResolveState
  /** Its JSON Schema check, compiled on first use. */
  check?: JsonSchemaCheck
}

/** What `tools/list` shows for a tool without `inputSchema`, as the SDK's McpServer does. */
const ANY_OBJECT: McpJsonSchema = { type: 'object', properties: {} }

/** Why a call's arguments were refused, as the SDK's McpServer words it; `undefined` when they pass. */
export async function checkArguments(
  entry: ToolEntry,
  args: unknown,
  compile: JsonSchemaCompiler,
): Promise<{ value: unknown; problem?: string }> {
  const schema = entry.definition.inputSchema
  // The SDK validates a missing `arguments` as `{}`.
  const input = args ?? {}
  if (schema === undefined) return { value: input }
  let problem: string | undefined
  let value: unknown = input
  if (isStandardSchema(schema)) {
    const result = await validateWithSchema(schema, input)
    if (result.issues) problem = formatIssues(result.issues)
    else value = result.value
  } else {
    entry.check ??= compile(schema)
    const result = entry.check(input)
    if (!result.valid) problem = result.errorMessage ?? 'the arguments do not match the input schema'
  }
  if (problem === undefined) return { value }
  return {
    value,
    problem: `MCP error -32602: Input validation error: Invalid arguments for tool ${entry.name}: ${problem}`,
  }
}

/** The tools by name, in declaration order; `tool()` adds or replaces one, `restore()` undoes that. */
export class ToolSet {
  readonly #owner: string
  readonly #declared: ReadonlyMap<string, ToolEntry>
  readonly #entries = new Map<string, ToolEntry>()

  /** @throws {TypeError} `tools` is not an object, or a definition is malformed. */
  constructor(owner: string, tools: Record<string, McpToolDefinition> | undefined) {
    this.#owner = owner
    if (tools !== undefined && !is.object(tools)) throw argumentError(owner, 'option tools', 'an object of tool definitions by name', tools)
    this.#declared = new Map(Object.entries(tools ?? {}).map(([name, definition]) => [name, makeEntry(owner, name, definition)]))
    this.restore()
  }

  /** Back to the tools the options declared, every cursor at the start. */
  restore(): void {
    this.#entries.clear()
    for (const entry of this.#declared.values()) {
      entry.cursor.cursor = 0
      this.#entries.set(entry.name, entry)
    }
  }

  /**
   * Adds or replaces a tool, its cursor at the start.
   * @throws {TypeError} the name is empty or the definition is malformed.
   */
  set(name: string, definition: McpToolDefinition): void {
    this.#entries.set(name, makeEntry(this.#owner, name, definition))
  }

  /** The tool named `name`, if declared. */
  get(name: string): ToolEntry | undefined {
    return this.#entries.get(name)
  }

  /** What `tools/list` shows, in declaration order. */
  list(): ListedTool[] {
    return [...this.#entries.values()].map((entry) => entry.listed)
  }
}

function makeEntry(owner: string, name: string, definition: McpToolDefinition): ToolEntry {
  if (typeof name !== 'string' || name.length === 0) throw argumentError(owner, 'a tool name', 'a non-empty string', name)
  const where = `${owner} tool ${JSON.stringify(name)}`
  if (!is.object(definition)) throw argumentError(where, 'the definition', 'an object like { description, inputSchema, responses }', definition)
  checkOptions(where, definition, {
    description: ['a string', is.string],
    title: ['a string', is.string],
    inputSchema: ['a Standard Schema (e.g. a zod schema) or a JSON Schema object', (value) => isStandardSchema(value) || is.object(value)],
    annotations: ['an object', is.object],
    responses: ['a function, map, list or value', () => true],
    cycle: ['a boolean', is.boolean],
  })
  const listed: ListedTool = { name, inputSchema: advertisedSchema(where, definition.inputSchema) }
  if (definition.title !== undefined) listed.title = definition.title
  if (definition.description !== undefined) listed.description = definition.description
  if (definition.annotations !== undefined) listed.annotations = definition.annotations
  return {
    name,
    definition,
    listed,
    cursor: { owner: `FakeMcpServer tool ${JSON.stringify(name)}`, cycle: definition.cycle ?? false, cursor: 0 },
  }
}

/** The JSON Schema `tools/list` shows: given as is, or derived from a Standard Schema. */
function advertisedSchema(where: string, schema: StandardSchemaV1 | McpJsonSchema | undefined): McpJsonSchema {
  if (schema === undefined) return ANY_OBJECT
  if (!isStandardSchema(schema)) {
    if (schema.type !== 'object') throw argumentError(where, 'a JSON Schema inputSchema', "an object schema ({ type: 'object', … }), as MCP requires", schema)
    return schema
  }
  // Standard JSON Schema (zod ≥ 4.2, ArkType, …) converts itself; other schemas are listed as any object.
  const converter = (schema['~standard'] as { jsonSchema?: { input?: (options: { target: string }) => unknown } }).jsonSchema
  if (typeof converter?.input !== 'function') return ANY_OBJECT
  let converted: unknown
  try {
    converted = converter.input({ target: 'draft-2020-12' })
  } catch (error) {
    throw new TypeError(`${PREFIX} ${where}: its inputSchema cannot be written as JSON Schema (${error instanceof Error ? error.message : String(error)})`)
  }
  const { $schema: _dialect, ...jsonSchema } = converted as Record<string, unknown>
  if (jsonSchema.type !== 'object') {
    throw new TypeError(`${PREFIX} ${where}: inputSchema must describe an object, as MCP requires; it describes ${describeValue(jsonSchema.type ?? jsonSchema)}`)
  }
  return jsonSchema as McpJsonSchema
}
