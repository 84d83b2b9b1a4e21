/**
 * One Realtime response on the wire (GA event names): the neutral stream of a brain in,
 * `response.created` … `response.done` out, with text as `response.output_text.*` or — when the
 * response speaks — deterministic PCM16 (`response.output_audio.delta`) with its transcript
 * (`response.output_audio_transcript.*`), tool calls as `function_call` items with their
 * arguments in deltas, and each output item added to the conversation (`conversation.item.*`).
 * A response cut short (`response.cancel`, speech started mid-response) closes its open item as
 * `incomplete` and ends `cancelled`. Pure: events are handed to `emit`, never sent.
 * @module
 */
import type { ModelResponse, StreamEvent, Usage } from '../../llm/types.js'
import { splitArguments } from '../dialect.js'
import { realtimeArguments, realtimeSaid } from './misbehave.js'
import { speechFor } from '../pcm16.js'
import type { RealtimeItem } from './items.js'

/** Takes each server event as it is made. */
export type EmitEvent = (event: Record<string, unknown>) => void

/** What one response knows of its session. */
export interface ResponseContext {
  readonly responseId: string
  readonly conversationId: string | null
  /** `['audio']` (speech with a transcript) or `['text']`. */
  readonly modalities: readonly string[]
  readonly voice: unknown
  readonly format: unknown
  readonly metadata: unknown
  /** A fresh `event_…` id. */
  eventId(): string
  /** A fresh `item_…` id. */
  itemId(): string
  /** The id of the conversation's last item, before an output item is added after it. */
  lastItemId(): string | null
  /** Adds an output item to the conversation (`null` for an out-of-band response). */
  addItem(item: RealtimeItem): void
  readonly emit: EmitEvent
}

/** How a response ended, as `response.done` reports it. */
export type ResponseEnd =
  | { status: 'completed' }
  | { status: 'incomplete'; reason: 'max_output_tokens' | 'content_filter' }
  | { status: 'cancelled'; reason: 'turn_detected' | 'client_cancelled' }
  | { status: 'failed'; error: { type: string; code: string | null; message: string } }

interface OpenMessage {
  item: RealtimeItem
  outputIndex: number
  text: string
}

/** Encodes one response; {@link encode} takes the brain's events, {@link end} closes it. */
export class RealtimeResponseEncoder {
  readonly #context: ResponseContext
  readonly #audio: boolean
  readonly #output: RealtimeItem[] = []
  #open: OpenMessage | undefined
  #usage: Usage | undefined
  #ended = false

  constructor(context: ResponseContext) {
    this.#context = context
    this.#audio = context.modalities.includes('audio')
  }

  /** Whether `response.done` went out. */
  get ended(): boolean {
    return this.#ended
  }

  /** Sends `response.created`. */
  start(): void {
    this.#emit('response.created', { response: this.#response('in_progress', null) })
  }

  /** Takes one neutral event (a `finish` ends the response). */
  readonly encode = (event: StreamEvent): void => {
    if (this.#ended) return
    // Text, and a refusal's words: the Realtime API has no refusal part (./misbehave.ts).
    const said = realtimeSaid(event)
    if (said !== undefined) this.#text(said)
    else if (event.type === 'tool-call') this.#toolCall(event.id, event.name, realtimeArguments(event))
    else if (event.type === 'finish') this.#finish(event.response)
    // Reasoning is not spoken or shown by the Realtime API.
  }

  /** Ends the response now: `cancelled`, or `failed` with the error (after an `error` event the caller sends). */
  end(how: ResponseEnd): void {
    if (this.#ended) return
    this.#closeOpen(how.status === 'completed' ? 'completed' : 'incomplete')
    this.#ended = true
    const details =
      how.status === 'completed'
        ? null
        : how.status === 'failed'
          ? { type: 'failed', error: how.error }
          : { type: how.status, reason: how.reason }
    this.#emit('response.done', { response: { ...this.#response(how.status, details), usage: realtimeUsage(this.#usage) } })
  }

  #finish(response: ModelResponse): void {
    this.#usage = response.usage
    // A brain's whole answer may carry text its deltas did not (a finish-only stream).
    if (!this.#open && this.#output.length === 0) {
      for (const part of response.content) {
        if ((part.type === 'text' || part.type === 'refusal') && part.text !== '') this.#text(part.text)
        else if (part.type === 'tool-call') this.#toolCall(part.id, part.name, realtimeArguments(part))
      }
    }
    if (response.finishReason === 'length') this.end({ status: 'incomplete', reason: 'max_output_tokens' })
    else if (response.finishReason === 'content-filter') this.end({ status: 'incomplete', reason: 'content_filter' })
    else this.end({ status: 'completed' })
  }

  #text(text: string): void {
    const open = this.#open ?? this.#openMessage()
    open.text += text
    const at = this.#at(open)
    if (this.#audio) {
      this.#emit('response.output_audio.delta', { ...at, delta: speechFor(text).toString('base64') })
      this.#emit('response.output_audio_transcript.delta', { ...at, delta: text })
    } else {
      this.#emit('response.output_text.delta', { ...at, delta: text })
    }
  }

  #openMessage(): OpenMessage {
    const part = this.#audio ? { type: 'output_audio', transcript: '' } : { type: 'output_text', text: '' }
    const item: RealtimeItem = { id: this.#context.itemId(), type: 'message', object: 'realtime.item', status: 'in_progress', role: 'assistant', content: [] }
    const open: OpenMessage = { item, outputIndex: this.#output.length, text: '' }
    this.#open = open
    this.#emit('response.output_item.added', { response_id: this.#context.responseId, output_index: open.outputIndex, item })
    this.#emit('conversation.item.added', { previous_item_id: this.#context.lastItemId(), item })
    this.#emit('response.content_part.added', { ...this.#at(open), part })
    return open
  }

  #closeOpen(status: 'completed' | 'incomplete'): void {
    const open = this.#open
    if (!open) return
    this.#open = undefined
    const at = this.#at(open)
    const part = this.#audio ? { type: 'output_audio', transcript: open.text } : { type: 'output_text', text: open.text }
    if (this.#audio) {
      this.#emit('response.output_audio.done', at)
      this.#emit('response.output_audio_transcript.done', { ...at, transcript: open.text })
    } else {
      this.#emit('response.output_text.done', { ...at, text: open.text })
    }
    this.#emit('response.content_part.done', { ...at, part })
    const item: RealtimeItem = { ...open.item, status, content: [part] }
    this.#finishItem(item, open.outputIndex)
  }

  /** A `function_call` item; `json` is the arguments as the model wrote them (not JSON, when it misbehaved). */
  #toolCall(callId: string, name: string, json: string): void {
    this.#closeOpen('completed')
    const outputIndex = this.#output.length
    const id = this.#context.itemId()
    const started: RealtimeItem = { id, type: 'function_call', object: 'realtime.item', status: 'in_progress', name, call_id: callId, arguments: '' }
    const responseId = this.#context.responseId
    this.#emit('response.output_item.added', { response_id: responseId, output_index: outputIndex, item: started })
    this.#emit('conversation.item.added', { previous_item_id: this.#context.lastItemId(), item: started })
    for (const delta of splitArguments(json)) {
      this.#emit('response.function_call_arguments.delta', { response_id: responseId, item_id: id, output_index: outputIndex, call_id: callId, delta })
    }
    this.#emit('response.function_call_arguments.done', { response_id: responseId, item_id: id, output_index: outputIndex, call_id: callId, name, arguments: json })
    this.#finishItem({ ...started, status: 'completed', arguments: json }, outputIndex)
  }

  #finishItem(item: RealtimeItem, outputIndex: number): void {
    const previous = this.#context.lastItemId()
    this.#output.push(item)
    this.#context.addItem(item)
    this.#emit('response.output_item.done', { response_id: this.#context.responseId, output_index: outputIndex, item })
    this.#emit('conversation.item.done', { previous_item_id: previous, item })
  }

  #at(open: OpenMessage): Record<string, unknown> {
    return { response_id: this.#context.responseId, item_id: open.item.id, output_index: open.outputIndex, content_index: 0 }
  }

  #response(status: string, details: unknown): Record<string, unknown> {
    const context = this.#context
    return {
      object: 'realtime.response',
      id: context.responseId,
      status,
      status_details: details,
      output: this.#output,
      conversation_id: context.conversationId,
      output_modalities: context.modalities,
      max_output_tokens: 'inf',
      audio: { output: { format: context.format, voice: context.voice } },
      usage: null,
      metadata: context.metadata ?? null,
    }
  }

  #emit(type: string, fields: Record<string, unknown>): void {
    this.#context.emit({ type, event_id: this.#context.eventId(), ...fields })
  }
}

/** `response.done`'s usage for a neutral one (all text tokens: the fake has no audio tokens). */
export function realtimeUsage(usage: Usage | undefined): Record<string, unknown> {
  const input = usage?.inputTokens ?? 0
  const output = usage?.outputTokens ?? 0
  return {
    total_tokens: input + output,
    input_tokens: input,
    output_tokens: output,
    input_token_details: { text_tokens: input, audio_tokens: 0, image_tokens: 0, cached_tokens: 0, cached_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0 } },
    output_token_details: { text_tokens: output, audio_tokens: 0 },
  }
}

/**
 * The Realtime `error` event: `error.event_id` names the client event that caused it.
 * @example
 * realtimeError('event_1', { type: 'invalid_request_error', code: 'response_cancel_not_active', message: '…' })
 */
export function realtimeError(
  eventId: string,
  error: { type: string; code: string | null; message: string; param?: string | null; eventId?: string | null },
): Record<string, unknown> {
  return { type: 'error', event_id: eventId, error: { type: error.type, code: error.code, message: error.message, param: error.param ?? null, event_id: error.eventId ?? null } }
}
