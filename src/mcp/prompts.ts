/**
 * The prompts a FakeMcpServer serves: `prompts/list` and `prompts/get`.
 * @module
 */
import { argumentError, checkOptions, is } from '../internal/describe.js'
import { McpProtocolError, RpcCode } from './protocol-error.js'
import type { McpContent, McpPromptArgument, McpPromptDefinition, McpPromptMessage } from './types.js'

/** A prompt as `prompts/list` shows it. */
export interface ListedPrompt {
  name: string
  title?: string
  description?: string
  arguments?: McpPromptArgument[]
}

/** What `prompts/get` answers. */
export interface PromptAnswer {
  description?: string
  messages: { role: 'user' | 'assistant'; content: McpContent }[]
}

/** The prompts by name, checked when declared. */
export class PromptSet {
  readonly #prompts = new Map<string, McpPromptDefinition>()

  /** @throws {TypeError} `prompts` is not an object, or a definition is malformed. */
  constructor(owner: string, prompts: Record<string, McpPromptDefinition> | undefined) {
    if (prompts !== undefined && !is.object(prompts)) throw argumentError(owner, 'option prompts', 'an object of prompt definitions by name', prompts)
    for (const [name, definition] of Object.entries(prompts ?? {})) {
      checkPrompt(`${owner} prompt ${JSON.stringify(name)}`, definition)
      this.#prompts.set(name, definition)
    }
  }

  /** What `prompts/list` shows, in declaration order. */
  list(): ListedPrompt[] {
    return [...this.#prompts].map(([name, definition]) => {
      const listed: ListedPrompt = { name }
      if (definition.title !== undefined) listed.title = definition.title
      if (definition.description !== undefined) listed.description = definition.description
      if (definition.arguments !== undefined) listed.arguments = [...definition.arguments]
      return listed
    })
  }

  /**
   * The prompt's messages for `args`.
   * @throws {McpProtocolError} -32602 for an unknown prompt or a missing required argument.
   */
  async get(name: string, args: Record<string, string> = {}): Promise<PromptAnswer> {
    const definition = this.#prompts.get(name)
    if (!definition) throw new McpProtocolError(RpcCode.InvalidParams, `Prompt ${name} not found`)
    const missing = (definition.arguments ?? []).filter((argument) => argument.required && args[argument.name] === undefined)
    if (missing.length > 0) {
      const names = missing.map((argument) => argument.name).join(', ')
      throw new McpProtocolError(RpcCode.InvalidParams, `Invalid arguments for prompt ${name}: missing required ${names}`)
    }
    const messages = typeof definition.messages === 'function' ? await definition.messages(args) : definition.messages
    const answer: PromptAnswer = { messages: messages.map(toWireMessage) }
    if (definition.description !== undefined) answer.description = definition.description
    return answer
  }
}

function toWireMessage(message: McpPromptMessage): PromptAnswer['messages'][number] {
  const content = typeof message.content === 'string' ? { type: 'text', text: message.content } : message.content
  return { role: message.role, content }
}

function checkPrompt(where: string, definition: McpPromptDefinition): void {
  if (!is.object(definition)) throw argumentError(where, 'the definition', 'an object like { description, messages }', definition)
  checkOptions(where, definition, {
    description: ['a string', is.string],
    title: ['a string', is.string],
    arguments: ['an array of { name, description?, required? }', (value) => Array.isArray(value) && value.every((a) => is.object(a) && is.string(a.name))],
    messages: ['an array of { role, content } or a function giving one', (value) => typeof value === 'function' || isMessageList(value)],
  })
  if (definition.messages === undefined) throw argumentError(where, 'messages', 'an array of { role, content } or a function giving one', undefined)
}

function isMessageList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (message) =>
        is.object(message) &&
        (message.role === 'user' || message.role === 'assistant') &&
        (typeof message.content === 'string' || is.object(message.content)),
    )
  )
}
