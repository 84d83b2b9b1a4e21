/**
 * What a FakeProxy remembers of the Responses it answered, so later requests can point back at
 * them (`previous_response_id`, `item_reference`): one store per proxy, least recently used
 * entries dropped past a byte budget, emptied by `reset()` and `close()`.
 * @module
 */
import { utf8Length } from '../internal/bytes.js'
import type { Message, ToolDefinition } from '../llm/types.js'

/** The default byte budget of one proxy's remembered responses (64 MiB). */
export const RESPONSE_MEMORY_BYTES = 64 * 1024 * 1024

/**
 * What a response passes on to one that continues from it (`previous_response_id`) besides its
 * messages: the input items that are neither messages nor calls. With OpenAI the conversation's
 * items carry over and the request's parameters do not, so the text of `developer` and `system`
 * input items and the tools of `additional_tools` input items (how Codex offers its tools, once,
 * on its prewarm) carry over, while `instructions` and the `tools` parameter do not.
 */
export interface CarriedContext {
  /** The text of the `developer` and `system` input items so far, in order. */
  readonly system: readonly string[]
  /** The tools of the `additional_tools` input items so far, in order. */
  readonly tools: readonly ToolDefinition[]
}

interface Entry {
  messages: Message[]
  carried: CarriedContext | undefined
  bytes: number
}

/**
 * Messages by response or item id, least recently used first out once their size passes
 * `capacity` bytes (sized as their JSON). An entry larger than the whole budget is not kept.
 * @example
 * const memory = new ResponseMemory()
 * memory.set('resp_1', [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])
 * memory.get('resp_1') // the messages
 */
export class ResponseMemory {
  readonly #entries = new Map<string, Entry>()
  #bytes = 0

  constructor(readonly capacity: number = RESPONSE_MEMORY_BYTES) {}

  /** The messages remembered under `id` (now the most recently used), or `undefined`. */
  get(id: string): readonly Message[] | undefined {
    const entry = this.#entries.get(id)
    if (!entry) return undefined
    this.#entries.delete(id)
    this.#entries.set(id, entry)
    return entry.messages
  }

  /** What the response remembered under `id` carries over besides its messages, or `undefined`. */
  carried(id: string): CarriedContext | undefined {
    return this.#entries.get(id)?.carried
  }

  /**
   * Remembers `messages` (and what else the response carries over) under `id`, dropping the
   * least recently used entries past the budget.
   */
  set(id: string, messages: Message[], carried?: CarriedContext): void {
    this.delete(id)
    const bytes = jsonBytes(messages) + (carried ? utf8Length(JSON.stringify(carried)) : 0)
    if (bytes > this.capacity) return
    this.#entries.set(id, { messages, carried, bytes })
    this.#bytes += bytes
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.capacity) break
      this.#entries.delete(oldest)
      this.#bytes -= entry.bytes
    }
  }

  /** Forgets `id`. */
  delete(id: string): void {
    const entry = this.#entries.get(id)
    if (!entry) return
    this.#entries.delete(id)
    this.#bytes -= entry.bytes
  }

  /** Forgets everything. */
  clear(): void {
    // Clearing an empty Map still allocates it a new table (every lane's reset and close).
    if (this.#entries.size > 0) this.#entries.clear()
    this.#bytes = 0
  }

  /** Bytes held now (JSON size of the remembered messages and what they carry over). */
  get bytes(): number {
    return this.#bytes
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size
  }
}

/**
 * The UTF-8 length of `JSON.stringify(messages)`, added up a message at a time: the same number,
 * without one string as long as a 30 MiB conversation (writing it held the event loop for
 * hundreds of ms; SPEC §24).
 */
function jsonBytes(messages: readonly Message[]): number {
  // `[`, `]` and a comma between each two.
  let bytes = messages.length === 0 ? 2 : messages.length + 1
  for (const message of messages) bytes += utf8Length(JSON.stringify(message))
  return bytes
}
