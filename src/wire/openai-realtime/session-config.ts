/**
 * The Realtime session object (GA shape): what `session.created` reports, what `session.update`
 * changes (a partial object, merged field by field), and what a response reads of it.
 * @module
 */
import { decodeToolList, record } from '../dialect.js'
import type { ToolChoice, ToolDefinition } from '../../llm/types.js'

/** The session as the API reports it; fields the fake does not read are kept as sent. */
export type RealtimeSessionObject = Record<string, unknown> & {
  id: string
  model: string
  instructions: string
  output_modalities: string[]
  tools: unknown[]
  tool_choice: unknown
  audio: { input: Record<string, unknown>; output: Record<string, unknown> }
}

/** The session a connection starts with, as the API reports it in `session.created`. */
export function defaultSession(id: string, model: string, expiresAt: number): RealtimeSessionObject {
  return {
    type: 'realtime',
    object: 'realtime.session',
    id,
    model,
    output_modalities: ['audio'],
    instructions: '',
    tools: [],
    tool_choice: 'auto',
    max_output_tokens: 'inf',
    tracing: null,
    truncation: 'auto',
    prompt: null,
    expires_at: expiresAt,
    include: null,
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: 24_000 },
        transcription: null,
        noise_reduction: null,
        turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 200, idle_timeout_ms: null, create_response: true, interrupt_response: true },
      },
      output: { format: { type: 'audio/pcm', rate: 24_000 }, voice: 'alloy', speed: 1 },
    },
  }
}

/** Fields `session.update` may not change. */
const FIXED = new Set(['id', 'object', 'expires_at'])

/**
 * `session` with `update` applied: top-level fields replaced, `audio.input` and `audio.output`
 * merged one level down (`turn_detection: null` turns VAD off), as the API merges them.
 */
export function mergeSession(session: RealtimeSessionObject, update: Record<string, unknown>): RealtimeSessionObject {
  const merged = { ...session } as RealtimeSessionObject
  for (const [field, value] of Object.entries(update)) {
    if (FIXED.has(field) || value === undefined) continue
    if (field === 'audio') {
      const audio = record(value)
      merged.audio = {
        input: { ...session.audio.input, ...record(audio.input) },
        output: { ...session.audio.output, ...record(audio.output) },
      }
    } else (merged as Record<string, unknown>)[field] = value
  }
  return merged
}

/** The session's server VAD settings, or `undefined` when turn detection is off. */
export function turnDetection(session: RealtimeSessionObject): { createResponse: boolean; interruptResponse: boolean } | undefined {
  const detection = session.audio.input.turn_detection
  if (detection === null || typeof detection !== 'object') return undefined
  const { create_response: create, interrupt_response: interrupt } = detection as Record<string, unknown>
  return { createResponse: create !== false, interruptResponse: interrupt !== false }
}

/** Whether the session transcribes input audio (`conversation.item.input_audio_transcription.*`). */
export function transcribesInput(session: RealtimeSessionObject): boolean {
  const transcription = session.audio.input.transcription
  return transcription !== null && typeof transcription === 'object'
}

/** The tools of a session or response, in the neutral model (function tools only). */
export function realtimeTools(tools: unknown): ToolDefinition[] | undefined {
  if (!Array.isArray(tools) || tools.length === 0) return undefined
  const functions = tools.filter((tool) => record(tool).type === undefined || record(tool).type === 'function')
  const decoded = decodeToolList(functions, (tool) => ({ name: tool.name, description: tool.description, schema: tool.parameters }))
  return decoded.length > 0 ? decoded : undefined
}

/** The neutral tool choice of a Realtime `tool_choice`. */
export function realtimeToolChoice(choice: unknown): ToolChoice | undefined {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice
  const named = record(choice)
  if (named.type === 'function' && typeof named.name === 'string') return { type: 'tool', name: named.name }
  return undefined
}
