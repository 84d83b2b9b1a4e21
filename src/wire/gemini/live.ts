/**
 * Gemini Live (`BidiGenerateContent` over WebSocket, as `@google/genai` `ai.live.connect` speaks
 * it): the client's `setup`, `clientContent`, `realtimeInput` and `toolResponse` messages, and
 * the server's `setupComplete`, `serverContent` (text, or PCM16 audio as inline data with its
 * transcription), `toolCall`, `turnComplete` and `usageMetadata`. Gemini Live has no error
 * message: a bad client message closes the connection with 1007 and a reason, as the API does.
 * Pure: messages are handed to `emit`, never sent.
 * @module
 */
import type { ModelResponse, StreamEvent } from '../../llm/types.js'
import { record } from '../dialect.js'
import { speechFor } from '../pcm16.js'
import { liveSends, liveTurnCompleteReason } from './live-misbehave.js'

/** The client messages of a Live session, by their one top-level field. */
export const LIVE_CLIENT_MESSAGES = ['setup', 'clientContent', 'realtimeInput', 'toolResponse'] as const

/** Which client message `message` is, or a reason to close the connection (1007). */
export function liveMessageKind(message: Record<string, unknown>): (typeof LIVE_CLIENT_MESSAGES)[number] | { invalid: string } {
  const fields = Object.keys(message)
  const known = fields.filter((field): field is (typeof LIVE_CLIENT_MESSAGES)[number] => (LIVE_CLIENT_MESSAGES as readonly string[]).includes(field))
  const unknown = fields.find((field) => !(LIVE_CLIENT_MESSAGES as readonly string[]).includes(field))
  if (unknown !== undefined) return { invalid: `Invalid JSON payload received. Unknown name "${unknown.slice(0, 40)}": Cannot find field.` }
  if (known.length !== 1) return { invalid: 'Invalid JSON payload received. A message must carry exactly one of setup, clientContent, realtimeInput, toolResponse.' }
  return known[0]!
}

/** What a session reads of its `setup`. */
export interface LiveSetup {
  /** The model without its `models/` prefix. */
  model: string
  /** `generateContent`-shaped fields the Gemini decoder reads (system instruction, tools, config). */
  request: Record<string, unknown>
  /** Whether answers are spoken (`responseModalities: ['AUDIO']`). */
  audio: boolean
  inputTranscription: boolean
  outputTranscription: boolean
  /** Automatic activity detection (on unless `realtimeInputConfig.automaticActivityDetection.disabled`). */
  vad: boolean
}

/** The session settings of a `setup` message. */
export function readSetup(setup: unknown): LiveSetup {
  const fields = record(setup)
  const config = record(fields.generationConfig)
  const modalities = Array.isArray(config.responseModalities) ? config.responseModalities : []
  const model = typeof fields.model === 'string' ? fields.model.replace(/^models\//, '').replace(/^.*\/models\//, '') : 'gemini-live-2.5-flash'
  const request: Record<string, unknown> = {}
  if (fields.systemInstruction !== undefined) request.systemInstruction = typeof fields.systemInstruction === 'string' ? { parts: [{ text: fields.systemInstruction }] } : fields.systemInstruction
  if (fields.tools !== undefined) request.tools = fields.tools
  const { responseModalities: _modalities, speechConfig: _speech, ...generationConfig } = config
  request.generationConfig = generationConfig
  return {
    model,
    request,
    audio: modalities.some((modality) => String(modality).toUpperCase() === 'AUDIO'),
    inputTranscription: fields.inputAudioTranscription !== undefined,
    outputTranscription: fields.outputAudioTranscription !== undefined,
    vad: record(record(fields.realtimeInputConfig).automaticActivityDetection).disabled !== true,
  }
}

/** Takes each server message as it is made. */
export type EmitMessage = (message: Record<string, unknown>) => void

/** The `usageMetadata` of a neutral usage. */
export function liveUsage(response: ModelResponse | undefined): Record<string, unknown> {
  const input = response?.usage.inputTokens ?? 0
  const output = response?.usage.outputTokens ?? 0
  return { promptTokenCount: input, responseTokenCount: output, totalTokenCount: input + output }
}

/**
 * Encodes one model turn: text (or speech) as `serverContent.modelTurn` parts, tool calls as a
 * `toolCall` message, and at the end `generationComplete`, `turnComplete` and the usage — unless
 * the turn asked for tools, when the model waits for their `toolResponse`.
 */
export class LiveTurnEncoder {
  readonly #emit: EmitMessage
  readonly #setup: LiveSetup
  /** What the model said, as the `model` content the conversation keeps. */
  readonly parts: Array<Record<string, unknown>> = []
  #text = ''
  #ended = false

  constructor(setup: LiveSetup, emit: EmitMessage) {
    this.#setup = setup
    this.#emit = emit
  }

  /** Takes one neutral event. */
  readonly encode = (event: StreamEvent): void => {
    // A call with broken arguments and a refusal are not sent: the turn's end says why (./live-misbehave.ts).
    if (this.#ended || !liveSends(event)) return
    if (event.type === 'reasoning-delta') {
      this.#emit({ serverContent: { modelTurn: { parts: [{ text: event.text, thought: true }] } } })
    } else if (event.type === 'text-delta') {
      this.#text += event.text
      if (this.#setup.audio) {
        this.#emit({ serverContent: { modelTurn: { parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data: speechFor(event.text).toString('base64') } }] } } })
        if (this.#setup.outputTranscription) this.#emit({ serverContent: { outputTranscription: { text: event.text } } })
      } else {
        this.#emit({ serverContent: { modelTurn: { parts: [{ text: event.text }] } } })
      }
    } else if (event.type === 'tool-call') {
      this.#flushText()
      const call = { id: event.id, name: event.name, args: event.args ?? {} }
      this.parts.push({ functionCall: call })
      this.#emit({ toolCall: { functionCalls: [call] } })
    } else if (event.type === 'finish') {
      this.#ended = true
      this.#flushText()
      const wantsTools = this.parts.some((part) => part.functionCall !== undefined)
      if (wantsTools) return this.#emit({ usageMetadata: liveUsage(event.response) })
      this.#emit({ serverContent: { generationComplete: true } })
      const reason = liveTurnCompleteReason(event.response)
      this.#emit({ serverContent: reason ? { turnComplete: true, turnCompleteReason: reason } : { turnComplete: true }, usageMetadata: liveUsage(event.response) })
    }
  }

  /** Ends a turn the user talked over: `interrupted`, as the API says it. */
  interrupt(): void {
    if (this.#ended) return
    this.#ended = true
    this.#flushText()
    this.#emit({ serverContent: { interrupted: true } })
  }

  #flushText(): void {
    if (this.#text === '') return
    this.parts.push({ text: this.#text })
    this.#text = ''
  }
}
