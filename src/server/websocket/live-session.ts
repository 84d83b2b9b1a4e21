/**
 * Gemini Live (SPEC §18): `setup` first, then user turns (`clientContent`, `realtimeInput` text,
 * or audio whose turn ends with silence, `activityEnd` or `audioStreamEnd`, heard as the
 * transcript the test supplied), tool calls and their `toolResponse`, answered by the proxy's
 * brain through the Gemini decoder (one record per model turn). Speech over an answer interrupts
 * it. A bad client message closes the connection with 1007 and the API's reason; a turn that
 * cannot be answered (a refusal, a planned provider error, a failing brain) with 1011.
 * @module
 */
import { BadRequest, record as fieldsOf } from '../../wire/dialect.js'
import { geminiGenerate } from '../../wire/gemini/codec.js'
import { isSilence } from '../../wire/pcm16.js'
import { LiveTurnEncoder, liveMessageKind, readSetup, type LiveSetup } from '../../wire/gemini/live.js'
import { MAX_AUDIO_BUFFER_BYTES } from './bounds.js'
import { admitTurn, brainFor, pumpTurn, TurnCancel, turnFailureOf, turnRecord, type TurnFailure } from './model-turn.js'
import { turnFaults } from './turn-faults.js'
import { Session, type ClientFault, type SessionContext } from './session.js'

/** Close codes the Live API uses. */
const INVALID_PAYLOAD = 1007
const INTERNAL_ERROR = 1011

/** A Gemini Live connection. */
export class LiveSession extends Session {
  #setup: LiveSetup | undefined
  /** The conversation as Gemini `contents`. */
  readonly #contents: Array<Record<string, unknown>> = []
  readonly #audio = { bytes: 0, speaking: false }
  #active: { encoder: LiveTurnEncoder; cancel: TurnCancel } | undefined
  #room: Promise<void> | undefined

  constructor(context: SessionContext) {
    super(context, 'gemini-live')
  }

  protected override acceptsBinary(): boolean {
    return true
  }

  protected onEvent(message: Record<string, unknown>): void {
    const kind = liveMessageKind(message)
    if (typeof kind !== 'string') return this.sendFault({ code: 'invalid_argument', message: kind.invalid })
    if (kind === 'setup') {
      if (this.#setup) return this.sendFault({ code: 'invalid_argument', message: 'setup was already sent on this connection' })
      this.#setup = readSetup(message.setup)
      this.record.model = this.#setup.model
      return void this.send({ setupComplete: {} })
    }
    if (!this.#setup) return this.sendFault({ code: 'invalid_argument', message: `the first message must be setup, not ${kind}` })
    if (kind === 'clientContent') return this.#clientContent(fieldsOf(message.clientContent), message)
    if (kind === 'toolResponse') return this.#toolResponse(fieldsOf(message.toolResponse), message)
    return this.#realtimeInput(fieldsOf(message.realtimeInput), message)
  }

  /** Live has no error message: the connection closes with the API's code and reason. */
  protected sendFault(fault: ClientFault): void {
    this.close(fault.code === 'server_error' ? INTERNAL_ERROR : INVALID_PAYLOAD, fault.message)
  }

  protected onClosed(): void {
    this.#active?.cancel.cancel()
    this.#active = undefined
  }

  #clientContent(content: Record<string, unknown>, message: Record<string, unknown>): void {
    if (content.turns !== undefined && !Array.isArray(content.turns)) return this.sendFault({ code: 'invalid_argument', message: 'Invalid JSON payload received. clientContent.turns must be a list of contents.' })
    for (const turn of (content.turns as unknown[] | undefined) ?? []) {
      const fields = fieldsOf(turn)
      this.#contents.push({ role: fields.role === 'model' ? 'model' : 'user', parts: Array.isArray(fields.parts) ? fields.parts : [] })
    }
    if (content.turnComplete === true) this.#respond(message)
  }

  #toolResponse(response: Record<string, unknown>, message: Record<string, unknown>): void {
    const answers = Array.isArray(response.functionResponses) ? response.functionResponses : []
    if (answers.length === 0) return this.sendFault({ code: 'invalid_argument', message: 'Invalid JSON payload received. toolResponse.functionResponses is empty.' })
    this.#contents.push({ role: 'user', parts: answers.map((answer) => ({ functionResponse: answer })) })
    this.#respond(message)
  }

  #realtimeInput(input: Record<string, unknown>, message: Record<string, unknown>): void {
    if (typeof input.text === 'string') {
      this.#contents.push({ role: 'user', parts: [{ text: input.text }] })
      return this.#respond(message)
    }
    const chunk = fieldsOf(input.audio).data ?? fieldsOf(Array.isArray(input.mediaChunks) ? input.mediaChunks[0] : undefined).data
    if (typeof chunk === 'string') {
      const pcm = Buffer.from(chunk, 'base64')
      if (this.#audio.bytes + pcm.length > MAX_AUDIO_BUFFER_BYTES) return this.sendFault({ code: 'invalid_argument', message: 'the audio turn is larger than the 64 MiB the fake holds' })
      this.#audio.bytes += pcm.length
      const silent = isSilence(pcm)
      if (!this.#setup!.vad) return
      if (!silent && !this.#audio.speaking) {
        this.#audio.speaking = true
        this.#interrupt()
      } else if (silent && this.#audio.speaking) this.#endAudioTurn(message)
      return
    }
    if (input.activityStart !== undefined) {
      this.#audio.speaking = true
      return this.#interrupt()
    }
    if (input.activityEnd !== undefined || input.audioStreamEnd === true) {
      if (this.#audio.bytes > 0 || this.#audio.speaking) this.#endAudioTurn(message)
    }
  }

  /** The audio turn becomes a user turn with the transcript the test supplied. */
  #endAudioTurn(message: Record<string, unknown>): void {
    this.#audio.speaking = false
    this.#audio.bytes = 0
    const transcript = this.sessionBook.takeHeard() ?? ''
    if (this.#setup!.inputTranscription) this.send({ serverContent: { inputTranscription: { text: transcript } } })
    this.#contents.push({ role: 'user', parts: [{ text: transcript }] })
    this.#respond(message)
  }

  #interrupt(): void {
    const active = this.#active
    if (!active) return
    this.#active = undefined
    active.cancel.cancel()
    active.encoder.interrupt()
  }

  #respond(message: Record<string, unknown>): void {
    this.#interrupt()
    const setup = this.#setup!
    let request
    try {
      const target = { path: `/v1beta/models/${setup.model}:streamGenerateContent`, query: new URLSearchParams('alt=sse') }
      // Not a spread followed by a new key: that is a slow path of V8 for a parsed object.
      request = geminiGenerate.decode(Object.assign({}, setup.request, { contents: this.#contents }), target)
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error
      return this.sendFault({ code: 'invalid_argument', message: error.message })
    }
    const turn = { state: this.state, identity: this.identity, dialect: 'gemini-live' as const, session: this.record.id, path: this.record.path, headers: this.record.headers, event: message, request }
    const record = turnRecord(turn)
    // Misbehaviour and chaos (SPEC §19), decided before admitTurn answers a provider error chaos chose.
    const faulty = turnFaults(this.state, record, this)
    const failure = admitTurn(turn, record)
    if (failure) return this.#fail(failure)
    const encoder = new LiveTurnEncoder(setup, (serverMessage) => {
      const room = this.send(serverMessage)
      if (room) this.#room = room
    })
    const active = { encoder, cancel: new TurnCancel() }
    this.#active = active
    const room = (): Promise<void> | undefined => {
      const waiting = this.#room
      this.#room = undefined
      return waiting
    }
    pumpTurn(faulty(brainFor(this.state, this.identity)), request, { encode: encoder.encode, record, toolCallIds: 'openai-call', cancel: active.cancel, room, maxDeltaChars: setup.audio ? 100 : undefined })
      .then(() => {
        // What the model said stays in the conversation, answered or cut.
        if (encoder.parts.length > 0) this.#contents.push({ role: 'model', parts: encoder.parts })
      })
      .catch((error: unknown) => {
        if (!active.cancel.cancelled && !this.closed) this.#fail(turnFailureOf(error))
      })
      .finally(() => {
        if (this.#active === active) this.#active = undefined
      })
  }

  #fail(failure: TurnFailure): void {
    this.close(INTERNAL_ERROR, failure.message)
  }
}
