/**
 * Realtime conversation items (GA shape) and the neutral conversation they stand for: what
 * `conversation.item.create` adds, what a response's output adds, and the `ModelRequest`
 * messages a response is asked with.
 * @module
 */
import type { Message } from '../../llm/types.js'
import { appendPart, imageFromUrl, parseArguments, record, toolNameFor } from '../dialect.js'

/** One conversation item as the API reports it (`object: 'realtime.item'`). */
export type RealtimeItem = Record<string, unknown> & { id: string; type: string }

/** The item types a client may create. */
const CREATABLE = new Set(['message', 'function_call', 'function_call_output'])

/**
 * The item a `conversation.item.create` adds, completed with what the API fills in (`id` when
 * the client gave none, `status`, `object`); a string says what is wrong with it.
 */
export function createdItem(raw: unknown, id: string): RealtimeItem | string {
  const item = record(raw)
  const type = item.type
  if (typeof type !== 'string' || !CREATABLE.has(type)) {
    return `Invalid value: ${JSON.stringify(type ?? null)}. Supported values are: 'message', 'function_call', and 'function_call_output'.`
  }
  if (type === 'message') {
    if (item.role !== 'user' && item.role !== 'assistant' && item.role !== 'system') return `Invalid value: ${JSON.stringify(item.role ?? null)}. Supported values are: 'user', 'assistant', and 'system'.`
    if (!Array.isArray(item.content)) return "Missing required parameter: 'item.content'."
  }
  if (type === 'function_call_output' && typeof item.call_id !== 'string') return "Missing required parameter: 'item.call_id'."
  if (type === 'function_call' && (typeof item.call_id !== 'string' || typeof item.name !== 'string')) return "Missing required parameter: 'item.call_id' or 'item.name'."
  // Copied, then completed field by field: a spread of a parsed object followed by new keys is
  // a slow path of V8 (tens of µs an item, measured), and this runs for every item and response.
  const created = Object.assign({}, item) as RealtimeItem
  created.id = typeof item.id === 'string' && item.id !== '' ? item.id : id
  created.type = type
  created.object = 'realtime.item'
  created.status = 'completed'
  return created
}

/** The user message an input audio turn becomes: its audio unsent, its transcript the test's. */
export function inputAudioItem(id: string, transcript: string | null): RealtimeItem {
  return { id, type: 'message', object: 'realtime.item', status: 'completed', role: 'user', content: [{ type: 'input_audio', transcript }] }
}

/**
 * The neutral messages of a conversation, in order; `system` collects the text of system
 * messages (the session's instructions come before it). Input audio reads as its transcript:
 * the item's own, else what `heard` says the test supplied for it.
 */
export function neutralConversation(items: readonly RealtimeItem[], heard: (itemId: string) => string | undefined = () => undefined): { messages: Message[]; system: string[] } {
  const messages: Message[] = []
  const system: string[] = []
  for (const item of items) {
    if (item.type === 'message') {
      const role = item.role
      for (const part of Array.isArray(item.content) ? item.content : []) {
        const content = record(part)
        const text =
          typeof content.text === 'string' ? content.text : typeof content.transcript === 'string' ? content.transcript : content.type === 'input_audio' ? heard(item.id) : undefined
        if (role === 'system') {
          if (text !== undefined) system.push(text)
        } else if (content.type === 'input_image' && typeof content.image_url === 'string') {
          appendPart(messages, 'user', imageFromUrl(content.image_url))
        } else if (text !== undefined || content.type === 'input_audio' || content.type === 'output_audio') {
          appendPart(messages, role === 'assistant' ? 'assistant' : 'user', { type: 'text', text: text ?? '' })
        }
      }
    } else if (item.type === 'function_call') {
      appendPart(messages, 'assistant', { type: 'tool-call', id: String(item.call_id), name: String(item.name), args: parseArguments(item.arguments ?? '{}') })
    } else if (item.type === 'function_call_output') {
      const id = String(item.call_id)
      const name = toolNameFor(messages, id)
      appendPart(messages, 'tool', { type: 'tool-result', id, ...(name === undefined ? {} : { name }), result: item.output ?? '' })
    }
  }
  return { messages, system }
}

/**
 * `item` with the audio of its content part `contentIndex` cut at `audioEndMs`
 * (`conversation.item.truncate`): the transcript is dropped, as the API drops it, since the
 * fake cannot tell which words were heard; `undefined` when the part is not assistant audio.
 */
export function truncatedItem(item: RealtimeItem, contentIndex: number): RealtimeItem | undefined {
  if (item.type !== 'message' || item.role !== 'assistant' || !Array.isArray(item.content)) return undefined
  const content = [...(item.content as Array<Record<string, unknown>>)]
  const part = content[contentIndex]
  if (!part || part.type !== 'output_audio') return undefined
  content[contentIndex] = { ...part, transcript: '' }
  return { ...item, content }
}
