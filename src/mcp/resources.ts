/**
 * The resources a FakeMcpServer serves: `resources/list` and `resources/read`.
 * @module
 */
import { argumentError, checkOptions, is } from '../internal/describe.js'
import { McpProtocolError, RpcCode } from './protocol-error.js'
import type { McpResourceDefinition } from './types.js'

/** A resource as `resources/list` shows it. */
export interface ListedResource {
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
}

/** A resource's contents as `resources/read` sends them. */
export interface ResourceContents {
  uri: string
  mimeType?: string
  text?: string
  blob?: string
}

interface Resource {
  listed: ListedResource
  contents: ResourceContents
}

/** The resources by URI, checked when declared. */
export class ResourceSet {
  readonly #resources = new Map<string, Resource>()

  /** @throws {TypeError} `resources` is not an object, or an entry is malformed. */
  constructor(owner: string, resources: Record<string, string | McpResourceDefinition> | undefined) {
    if (resources !== undefined && !is.object(resources)) {
      throw argumentError(owner, 'option resources', 'an object of contents by URI', resources)
    }
    for (const [uri, entry] of Object.entries(resources ?? {})) this.#resources.set(uri, makeResource(owner, uri, entry))
  }

  /** What `resources/list` shows, in declaration order. */
  list(): ListedResource[] {
    return [...this.#resources.values()].map((resource) => resource.listed)
  }

  /**
   * The contents of `uri`.
   * @throws {McpProtocolError} -32002 (MCP's "resource not found") for a URI not declared.
   */
  read(uri: string): ResourceContents[] {
    const resource = this.#resources.get(uri)
    if (!resource) throw new McpProtocolError(RpcCode.ResourceNotFound, `Resource not found: ${uri}`, { uri })
    return [resource.contents]
  }
}

function makeResource(owner: string, uri: string, entry: string | McpResourceDefinition): Resource {
  const where = `${owner} resource ${JSON.stringify(uri)}`
  const definition: McpResourceDefinition = typeof entry === 'string' ? { text: entry } : entry
  if (!is.object(definition)) throw argumentError(where, 'the resource', 'a string or { text | blob, mimeType?, name?, description? }', entry)
  checkOptions(where, definition, {
    text: ['a string', is.string],
    blob: ['a base64 string', is.string],
    mimeType: ['a string', is.string],
    name: ['a string', is.string],
    title: ['a string', is.string],
    description: ['a string', is.string],
  })
  if ((definition.text === undefined) === (definition.blob === undefined)) {
    throw argumentError(where, 'the resource', 'given exactly one of text and blob', definition)
  }
  const mimeType = definition.mimeType ?? (definition.text !== undefined ? 'text/plain' : undefined)
  const listed: ListedResource = { uri, name: definition.name ?? lastSegment(uri) }
  if (definition.title !== undefined) listed.title = definition.title
  if (definition.description !== undefined) listed.description = definition.description
  if (mimeType !== undefined) listed.mimeType = mimeType
  const contents: ResourceContents =
    definition.text !== undefined ? { uri, text: definition.text } : { uri, blob: definition.blob }
  if (mimeType !== undefined) contents.mimeType = mimeType
  return { listed, contents }
}

function lastSegment(uri: string): string {
  const trimmed = uri.replace(/\/+$/, '')
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || uri
}
