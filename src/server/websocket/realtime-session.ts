/**
 * OpenAI Realtime (GA, `GET /v1/realtime?model=…`, SPEC §18): the session and its conversation,
 * the input audio buffer with the fake's server VAD (loud audio starts speech, a silent chunk
 * ends the turn), responses from the proxy's brain (one record each, the conversation at
 * `response.create` as its request), interruption (`response.cancel`, or speech started while a
 * response plays) and the API's `error` events for the client's faults.
 * @module
 */
import type { ModelRequest } from '../../llm/types.js'
import { record as fieldsOf } from '../../wire/dialect.js'
import { MAX_AUDIO_BUFFER_BYTES } from './bounds.js'
import { durationMs, isSilence } from '../../wire/pcm16.js'
import { createdItem, inputAudioItem, neutralConversation, truncatedItem, type RealtimeItem } from '../../wire/openai-realtime/items.js'
import { RealtimeResponseEncoder, realtimeError, type ResponseEnd } from '../../wire/openai-realtime/response-events.js'
import {
  defaultSession,
  mergeSession,
  realtimeToolChoice,
  realtimeTools,
  transcribesInput,
  turnDetection,
  type RealtimeSessionObject,
} from '../../wire/openai-realtime/session-config.js'
import { admitTurn, brainFor, pumpTurn, TurnCancel, turnFailureOf, turnRecord, type TurnFailure } from './model-turn.js'
import { turnFaults } from './turn-faults.js'
import type { FakeRequest } from '../types.js'
import { Session, type ClientFault, type SessionContext } from './session.js'

/** The client events the API accepts (`output_audio_buffer.clear` is WebRTC's only). */
const CLIENT_EVENTS = [
  'session.update',
  'input_audio_buffer.append',
  'input_audio_buffer.commit',
  'input_audio_buffer.clear',
  'conversation.item.create',
  'conversation.item.retrieve',
  'conversation.item.truncate',
  'conversation.item.delete',
  'response.create',
  'response.cancel',
]

/** Characters of a text delta spoken at once (a second of speech) before the client's room is checked again. */
const SPOKEN_DELTA_CHARS = 100

/** The model a connection opened without `?model=` gets. */
const DEFAULT_MODEL = 'gpt-realtime'

/** A response being made. */
interface ActiveResponse {
  readonly id: string
  readonly encoder: RealtimeResponseEncoder
  readonly cancel: TurnCancel
  /** Its record in `proxy.requests`. */
  readonly record: FakeRequest
}

/** An OpenAI Realtime connection. */
export class RealtimeSession extends Session {
  #session: RealtimeSessionObject
  readonly #items: RealtimeItem[] = []
  /** Transcripts the test supplied for input audio items (`proxy.realtime.hear`). */
  readonly #heard = new Map<string, string>()
  readonly #audio = { chunks: [] as Buffer[], bytes: 0, speaking: false, itemId: '', startMs: 0 }
  #active: ActiveResponse | undefined
  /** A promise while the client has fallen behind. */
  #room: Promise<void> | undefined
  #counter = 0
  /** The middle of every id of this session (its record's number). */
  readonly #idStem: string

  constructor(context: SessionContext) {
    super(context, 'openai-realtime')
    this.#idStem = this.record.id.slice(3)
    const model = this.record.model ?? DEFAULT_MODEL
    this.record.model = model
    this.#session = defaultSession(this.#id('sess_'), model, Math.floor(Date.now() / 1000) + 30 * 60)
    this.#emit('session.created', { session: this.#session })
  }

  protected onEvent(event: Record<string, unknown>): void {
    const eventId = typeof event.event_id === 'string' ? event.event_id : null
    switch (event.type) {
      case 'session.update':
        return this.#update(event, eventId)
      case 'conversation.item.create':
        return this.#createItem(event, eventId)
      case 'conversation.item.retrieve':
        return this.#withItem(event, eventId, 'retrieve', (item) => this.#emit('conversation.item.retrieved', { item }))
      case 'conversation.item.delete':
        return this.#withItem(event, eventId, 'delete', (item) => {
          this.#items.splice(this.#items.indexOf(item), 1)
          this.#emit('conversation.item.deleted', { item_id: item.id })
        })
      case 'conversation.item.truncate':
        return this.#truncate(event, eventId)
      case 'input_audio_buffer.append':
        return this.#append(event, eventId)
      case 'input_audio_buffer.commit':
        return this.#commit(eventId)
      case 'input_audio_buffer.clear':
        this.#clearAudio()
        return this.#emit('input_audio_buffer.cleared', {})
      case 'response.create':
        return this.#respond(event, eventId, this.eventBytes())
      case 'response.cancel':
        if (!this.#active) return this.sendFault({ code: 'response_cancel_not_active', message: 'Cancellation failed: no active response found.', eventId })
        return this.#cancel('client_cancelled')
      default:
        return this.sendFault({
          code: 'invalid_value',
          param: 'type',
          eventId,
          message: `Invalid value: ${JSON.stringify(event.type ?? null)}. Supported values are: ${CLIENT_EVENTS.map((type) => `'${type}'`).join(', ')}.`,
        })
    }
  }

  protected sendFault(fault: ClientFault): void {
    this.send(realtimeError(this.#id('event_'), { type: fault.code === 'server_error' ? 'server_error' : 'invalid_request_error', code: fault.code, message: fault.message, param: fault.param, eventId: fault.eventId }))
  }

  protected onClosed(): void {
    // Stops the brain (a latency wait ends at once); nothing more is sent. The record keeps
    // what the response said before the client left.
    const active = this.#active
    this.#active = undefined
    if (active) this.#cut(active, 'disconnected')
    this.#clearAudio()
  }

  #update(event: Record<string, unknown>, eventId: string | null): void {
    const update = event.session
    if (update === null || typeof update !== 'object' || Array.isArray(update)) {
      return this.sendFault({ code: 'missing_required_parameter', param: 'session', message: "Missing required parameter: 'session'.", eventId })
    }
    const type = (update as Record<string, unknown>).type
    if (type !== undefined && type !== 'realtime') {
      return this.sendFault({ code: 'invalid_value', param: 'session.type', message: `Invalid value: ${JSON.stringify(type)}. Supported values are: 'realtime'.`, eventId })
    }
    this.#session = mergeSession(this.#session, update as Record<string, unknown>)
    if (typeof this.#session.model === 'string') this.record.model = this.#session.model
    this.#emit('session.updated', { session: this.#session })
  }

  #createItem(event: Record<string, unknown>, eventId: string | null): void {
    const item = createdItem(event.item, this.#id('item_'))
    if (typeof item === 'string') return this.sendFault({ code: 'invalid_value', param: 'item', message: item, eventId })
    const previous = event.previous_item_id
    let at = this.#items.length
    if (previous === 'root') at = 0
    else if (typeof previous === 'string') {
      const found = this.#items.findIndex((existing) => existing.id === previous)
      if (found === -1) return this.sendFault({ code: 'invalid_value', param: 'previous_item_id', message: `Error adding item: the previous item with id '${previous}' does not exist.`, eventId })
      at = found + 1
    }
    this.#items.splice(at, 0, item)
    const before = at === 0 ? null : this.#items[at - 1]!.id
    const fields = `,"previous_item_id":${JSON.stringify(before)},"item":${JSON.stringify(item)}`
    this.#emitJson('conversation.item.added', fields)
    this.#emitJson('conversation.item.done', fields)
  }

  #withItem(event: Record<string, unknown>, eventId: string | null, action: 'retrieve' | 'delete', use: (item: RealtimeItem) => void): void {
    const item = this.#items.find((existing) => existing.id === event.item_id)
    if (item) return use(item)
    this.sendFault({ code: `item_${action}_invalid_item_id`, param: 'item_id', message: `Error ${action === 'retrieve' ? 'retrieving' : 'deleting'} item: the item with id '${String(event.item_id)}' does not exist.`, eventId })
  }

  #truncate(event: Record<string, unknown>, eventId: string | null): void {
    const index = this.#items.findIndex((existing) => existing.id === event.item_id)
    const contentIndex = typeof event.content_index === 'number' ? event.content_index : 0
    const truncated = index === -1 ? undefined : truncatedItem(this.#items[index]!, contentIndex)
    if (!truncated) {
      return this.sendFault({ code: 'item_truncate_invalid_item_id', param: 'item_id', message: `Error truncating item: the item with id '${String(event.item_id)}' is not an assistant message with audio at content index ${contentIndex}.`, eventId })
    }
    this.#items[index] = truncated
    this.#emit('conversation.item.truncated', { item_id: truncated.id, content_index: contentIndex, audio_end_ms: typeof event.audio_end_ms === 'number' ? event.audio_end_ms : 0 })
  }

  #append(event: Record<string, unknown>, eventId: string | null): void {
    if (typeof event.audio !== 'string') return this.sendFault({ code: 'missing_required_parameter', param: 'audio', message: "Missing required parameter: 'audio'.", eventId })
    const chunk = Buffer.from(event.audio, 'base64')
    if (this.#audio.bytes + chunk.length > MAX_AUDIO_BUFFER_BYTES) {
      return this.sendFault({ code: 'input_audio_buffer_full', param: 'audio', message: `The input audio buffer holds at most ${MAX_AUDIO_BUFFER_BYTES} bytes; commit or clear it.`, eventId })
    }
    const vad = turnDetection(this.#session)
    const silent = isSilence(chunk)
    const audio = this.#audio
    if (vad && !audio.speaking && !silent) {
      audio.speaking = true
      audio.itemId = this.#id('item_')
      audio.startMs = durationMs(audio.bytes)
      this.#emit('input_audio_buffer.speech_started', { audio_start_ms: audio.startMs, item_id: audio.itemId })
      // The user talks over the answer: it is cut, as the API cuts it.
      if (this.#active && vad.interruptResponse) this.#cancel('turn_detected')
    }
    audio.chunks.push(chunk)
    audio.bytes += chunk.length
    if (vad && audio.speaking && silent) {
      audio.speaking = false
      this.#emit('input_audio_buffer.speech_stopped', { audio_end_ms: durationMs(audio.bytes), item_id: audio.itemId })
      this.#commitAudio(audio.itemId)
      if (vad.createResponse && !this.#active) this.#respond({ type: 'response.create' }, null)
    }
  }

  #commit(eventId: string | null): void {
    if (this.#audio.bytes === 0) {
      return this.sendFault({ code: 'input_audio_buffer_commit_empty', message: 'Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has 0.00ms of audio.', eventId })
    }
    this.#audio.speaking = false
    this.#commitAudio(this.#audio.itemId || this.#id('item_'))
  }

  /** The buffer becomes a user item whose transcript is the next one the test supplied. */
  #commitAudio(itemId: string): void {
    const previous = this.#items.at(-1)?.id ?? null
    const transcript = this.sessionBook.takeHeard() ?? ''
    this.#heard.set(itemId, transcript)
    this.#clearAudio()
    const transcribed = transcribesInput(this.#session)
    const item = inputAudioItem(itemId, transcribed ? transcript : null)
    this.#items.push(item)
    this.#emit('input_audio_buffer.committed', { previous_item_id: previous, item_id: itemId })
    this.#emit('conversation.item.added', { previous_item_id: previous, item: inputAudioItem(itemId, null) })
    this.#emit('conversation.item.done', { previous_item_id: previous, item })
    if (transcribed) {
      this.#emit('conversation.item.input_audio_transcription.completed', { item_id: itemId, content_index: 0, transcript, usage: { type: 'duration', seconds: 0 } })
    }
  }

  #clearAudio(): void {
    const audio = this.#audio
    audio.chunks = []
    audio.bytes = 0
    audio.speaking = false
    audio.itemId = ''
  }

  #respond(event: Record<string, unknown>, eventId: string | null, eventBytes?: Uint8Array): void {
    if (this.#active) {
      return this.sendFault({ code: 'conversation_already_has_active_response', message: `Conversation already has an active response in progress: ${this.#active.id}. Wait until the response is finished before creating a new one.`, eventId })
    }
    const options = fieldsOf(event.response)
    const outOfBand = options.conversation === 'none'
    let context = this.#items
    if (Array.isArray(options.input)) {
      const input: RealtimeItem[] = []
      for (const raw of options.input) {
        const item = createdItem(raw, this.#id('item_'))
        if (typeof item === 'string') return this.sendFault({ code: 'invalid_value', param: 'response.input', message: item, eventId })
        input.push(item)
      }
      context = input
    }
    const session = this.#session
    const modalities = Array.isArray(options.output_modalities) ? (options.output_modalities as string[]) : session.output_modalities
    const instructions = typeof options.instructions === 'string' ? options.instructions : session.instructions
    const { messages, system } = neutralConversation(context, (id) => this.#heard.get(id))
    const systemText = [instructions, ...system].filter((text) => text !== '').join('\n\n')
    const request: ModelRequest = { model: session.model, messages, stream: true }
    if (systemText !== '') request.system = systemText
    const tools = realtimeTools(options.tools ?? session.tools)
    if (tools) request.tools = tools
    const toolChoice = realtimeToolChoice(options.tool_choice ?? session.tool_choice)
    if (toolChoice && tools) request.toolChoice = toolChoice
    const maxTokens = options.max_output_tokens ?? session.max_output_tokens
    if (typeof maxTokens === 'number') request.maxTokens = maxTokens

    const turn = { state: this.state, identity: this.identity, dialect: 'openai-realtime' as const, session: this.record.id, path: this.record.path, headers: this.record.headers, event, eventBytes, request }
    const record = turnRecord(turn)
    const responseId = this.#id('resp_')
    const output = fieldsOf(fieldsOf(options.audio).output)
    const encoder = new RealtimeResponseEncoder({
      responseId,
      conversationId: outOfBand ? null : this.#conversationId(),
      modalities,
      voice: output.voice ?? session.audio.output.voice,
      format: session.audio.output.format,
      metadata: options.metadata,
      eventId: () => this.#id('event_'),
      itemId: () => this.#id('item_'),
      lastItemId: () => (outOfBand ? null : (this.#items.at(-1)?.id ?? null)),
      addItem: (item) => void (outOfBand || this.#items.push(item)),
      emit: (serverEvent) => {
        const room = this.send(serverEvent)
        if (room) this.#room = room
      },
    })
    // Misbehaviour and chaos (SPEC §19), decided before admitTurn answers a provider error chaos chose.
    const faulty = turnFaults(this.state, record, this)
    const failure = admitTurn(turn, record)
    encoder.start()
    if (failure) return this.#fail(encoder, failure, eventId)
    const active: ActiveResponse = { id: responseId, encoder, cancel: new TurnCancel(), record }
    this.#active = active
    const room = (): Promise<void> | undefined => {
      const waiting = this.#room
      this.#room = undefined
      return waiting
    }
    pumpTurn(faulty(brainFor(this.state, this.identity)), request, { encode: encoder.encode, record, toolCallIds: 'openai-call', cancel: active.cancel, room, maxDeltaChars: modalities.includes('audio') ? SPOKEN_DELTA_CHARS : undefined })
      .catch((error: unknown) => {
        if (!active.cancel.cancelled && !this.closed) this.#fail(encoder, turnFailureOf(error), eventId)
      })
      .finally(() => {
        if (this.#active === active) this.#active = undefined
      })
  }

  /** Ends a response that could not be made: the `error` event, then `response.done` failed. */
  #fail(encoder: RealtimeResponseEncoder, failure: TurnFailure, eventId: string | null): void {
    this.send(realtimeError(this.#id('event_'), { type: failure.type, code: failure.code, message: failure.message, eventId }))
    encoder.end({ status: 'failed', error: { type: failure.type, code: failure.code, message: failure.message } })
  }

  #cancel(reason: Extract<ResponseEnd, { status: 'cancelled' }>['reason']): void {
    const active = this.#active
    if (!active) return
    this.#active = undefined
    this.#cut(active, reason)
    active.encoder.end({ status: 'cancelled', reason })
  }

  /**
   * Stops a response before its end: the brain is stopped, and its record keeps what was said
   * so far (`response`) and why it stopped (`cancelled`), so matchers see the partial turn.
   */
  #cut(active: ActiveResponse, reason: NonNullable<FakeRequest['cancelled']>): void {
    active.cancel.cancel()
    if (active.encoder.ended) return
    active.record.response = active.encoder.said()
    active.record.cancelled = reason
    if (reason === 'disconnected') active.encoder.halt()
  }

  #conversationId(): string {
    return `conv_${this.record.id.slice(3)}`
  }

  /** Ids unique within the session, in the API's prefixes (letters, digits and `_` only). */
  #id(prefix: string): string {
    return `${prefix}${this.#idStem}${(++this.#counter).toString(36).padStart(6, '0')}`
  }

  #emit(type: string, fields: Record<string, unknown>): void {
    this.send({ type, event_id: this.#id('event_'), ...fields })
  }

  /** Sends the event `type` whose other fields are the JSON text `fields` (`,"name":value…`). */
  #emitJson(type: string, fields: string): void {
    this.send(`{"type":"${type}","event_id":"${this.#id('event_')}"${fields}}`)
  }
}
