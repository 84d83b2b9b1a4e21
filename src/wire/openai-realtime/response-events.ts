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
import type { ModelResponse, Part, StreamEvent, Usage } from '../../llm/types.js'
import { parseArguments, splitArguments } from '../dialect.js'
import { realtimeArguments, realtimeSaid } from './misbehave.js'
import { speechFor } from '../pcm16.js'
import type { RealtimeItem } from './items.js'

/** Takes each server event as it is made: its JSON text, one WebSocket message. */
export type EmitEvent = (event: string) => void

/**
 * What one response knows of its session. The ids it hands out (`responseId`, `eventId()`,
 * `itemId()`) are made by the session of letters, digits and `_` only, so they are written into
 * the JSON as they are.
 */
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
  /** `,"response_id":…,"item_id":…,"output_index":…,"content_index":0`: the fields of every event about its content part. */
  at: string
}

/** Characters of text whose speech one `response.output_audio.delta` carries: a second (10 ms a character). */
const CHARACTERS_PER_AUDIO_DELTA = 100

/** The content part of a message being spoken or written, as `response.content_part.added` shows it. */
const EMPTY_AUDIO_PART = '{"type":"output_audio","transcript":""}'
const EMPTY_TEXT_PART = '{"type":"output_text","text":""}'

/**
 * Encodes one response; {@link encode} takes the brain's events, {@link end} closes it. The
 * events are the API's fixed shapes, written as text around the few values that change (a
 * delta, an id), rather than built as objects and serialised one by one: a response is mostly
 * deltas, and a bare server sending prepared frames is what this is measured against (SPEC §23).
 */
export class RealtimeResponseEncoder {
  readonly #context: ResponseContext
  readonly #audio: boolean
  /** `,"response_id":"resp_…"` */
  readonly #responseField: string
  readonly #output: RealtimeItem[] = []
  #open: OpenMessage | undefined
  #usage: Usage | undefined
  #ended = false

  constructor(context: ResponseContext) {
    this.#context = context
    this.#audio = context.modalities.includes('audio')
    this.#responseField = `,"response_id":"${context.responseId}"`
  }

  /** Whether `response.done` went out. */
  get ended(): boolean {
    return this.#ended
  }

  /** Sends `response.created`. */
  start(): void {
    this.#send('response.created', `,"response":${JSON.stringify(this.#response('in_progress', null))}`)
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

  /** Stops the response without a word more (its connection is gone). */
  halt(): void {
    this.#ended = true
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
    this.#send('response.done', `,"response":${JSON.stringify(this.#response(how.status, details, realtimeUsage(this.#usage)))}`)
  }

  /**
   * What the response has said so far, in the neutral model: the text of its messages and the
   * tool calls it finished (for the record of a response cut short).
   */
  said(): ModelResponse {
    const content: Part[] = []
    const text = (value: unknown): void => {
      if (typeof value !== 'string' || value === '') return
      const last = content.at(-1)
      if (last?.type === 'text') last.text += value
      else content.push({ type: 'text', text: value })
    }
    for (const item of this.#output) {
      if (item.type === 'function_call') content.push({ type: 'tool-call', id: String(item.call_id), name: String(item.name), args: parseArguments(item.arguments) })
      else for (const part of item.content as Array<Record<string, unknown>>) text(part.text ?? part.transcript)
    }
    text(this.#open?.text)
    const calls = content.some((part) => part.type === 'tool-call')
    return { content, finishReason: calls ? 'tool-calls' : 'stop', usage: { inputTokens: this.#usage?.inputTokens ?? 0, outputTokens: this.#usage?.outputTokens ?? 0 } }
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
    const delta = JSON.stringify(text)
    if (this.#audio) {
      // At most a second of speech a delta, as the API streams it: a long text is many deltas,
      // never one frame of megabytes, and a connection dropped meanwhile stops the rest.
      for (let at = 0; at < text.length && !this.#ended; at += CHARACTERS_PER_AUDIO_DELTA) {
        this.#send('response.output_audio.delta', `${open.at},"delta":"${speechFor(text.slice(at, at + CHARACTERS_PER_AUDIO_DELTA)).toString('base64')}"`)
      }
      if (this.#ended) return
      this.#send('response.output_audio_transcript.delta', `${open.at},"delta":${delta}`)
    } else {
      this.#send('response.output_text.delta', `${open.at},"delta":${delta}`)
    }
  }

  #openMessage(): OpenMessage {
    const item: RealtimeItem = { id: this.#context.itemId(), type: 'message', object: 'realtime.item', status: 'in_progress', role: 'assistant', content: [] }
    const outputIndex = this.#output.length
    const open: OpenMessage = { item, outputIndex, text: '', at: `${this.#responseField},"item_id":"${item.id}","output_index":${outputIndex},"content_index":0` }
    this.#open = open
    const json = JSON.stringify(item)
    this.#send('response.output_item.added', `${this.#responseField},"output_index":${outputIndex},"item":${json}`)
    this.#send('conversation.item.added', `,"previous_item_id":${JSON.stringify(this.#context.lastItemId())},"item":${json}`)
    this.#send('response.content_part.added', `${open.at},"part":${this.#audio ? EMPTY_AUDIO_PART : EMPTY_TEXT_PART}`)
    return open
  }

  #closeOpen(status: 'completed' | 'incomplete'): void {
    const open = this.#open
    if (!open) return
    this.#open = undefined
    const text = JSON.stringify(open.text)
    const part = this.#audio ? { type: 'output_audio', transcript: open.text } : { type: 'output_text', text: open.text }
    if (this.#audio) {
      this.#send('response.output_audio.done', open.at)
      this.#send('response.output_audio_transcript.done', `${open.at},"transcript":${text}`)
    } else {
      this.#send('response.output_text.done', `${open.at},"text":${text}`)
    }
    this.#send('response.content_part.done', `${open.at},"part":${this.#audio ? `{"type":"output_audio","transcript":${text}}` : `{"type":"output_text","text":${text}}`}`)
    this.#finishItem({ ...open.item, status, content: [part] }, open.outputIndex)
  }

  /** A `function_call` item; `json` is the arguments as the model wrote them (not JSON, when it misbehaved). */
  #toolCall(callId: string, name: string, json: string): void {
    this.#closeOpen('completed')
    const outputIndex = this.#output.length
    const id = this.#context.itemId()
    const started: RealtimeItem = { id, type: 'function_call', object: 'realtime.item', status: 'in_progress', name, call_id: callId, arguments: '' }
    const startedJson = JSON.stringify(started)
    this.#send('response.output_item.added', `${this.#responseField},"output_index":${outputIndex},"item":${startedJson}`)
    this.#send('conversation.item.added', `,"previous_item_id":${JSON.stringify(this.#context.lastItemId())},"item":${startedJson}`)
    const at = `${this.#responseField},"item_id":"${id}","output_index":${outputIndex},"call_id":${JSON.stringify(callId)}`
    for (const delta of splitArguments(json)) this.#send('response.function_call_arguments.delta', `${at},"delta":${JSON.stringify(delta)}`)
    this.#send('response.function_call_arguments.done', `${at},"name":${JSON.stringify(name)},"arguments":${JSON.stringify(json)}`)
    this.#finishItem({ ...started, status: 'completed', arguments: json }, outputIndex)
  }

  #finishItem(item: RealtimeItem, outputIndex: number): void {
    const previous = this.#context.lastItemId()
    this.#output.push(item)
    this.#context.addItem(item)
    const json = JSON.stringify(item)
    this.#send('response.output_item.done', `${this.#responseField},"output_index":${outputIndex},"item":${json}`)
    this.#send('conversation.item.done', `,"previous_item_id":${JSON.stringify(previous)},"item":${json}`)
  }

  #response(status: string, details: unknown, usage: Record<string, unknown> | null = null): Record<string, unknown> {
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
      usage,
      metadata: context.metadata ?? null,
    }
  }

  /** Sends the event `type` whose other fields, after `type` and `event_id`, are the JSON text `fields` (`,"name":value…`). */
  #send(type: string, fields: string): void {
    this.#context.emit(`{"type":"${type}","event_id":"${this.#context.eventId()}"${fields}}`)
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
