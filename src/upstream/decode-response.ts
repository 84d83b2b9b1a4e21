/**
 * An upstream's answer, as the bytes it sent, read back into the neutral {@link ModelResponse}
 * that a transcript line keeps — for whichever dialect carried it, JSON or SSE.
 * @module
 */
import type { ModelResponse } from '../llm/types.js'
import type { Dialect } from '../server/types.js'
import { decodeMessageJson, decodeMessagesStream } from './anthropic-messages.js'
import { decodeChatJson, decodeChatStream } from './openai-chat.js'
import { decodeResponseObject, decodeResponsesStream } from './openai-responses.js'
import { bodyText, isEventStream, parseJson } from './sse-events.js'

/** How one dialect's answers are read: a JSON body, or a whole event stream. */
interface ResponseDecoder {
  json(json: unknown): ModelResponse | undefined
  stream(text: string): ModelResponse | undefined
}

const decoders: Partial<Record<Dialect, ResponseDecoder>> = {
  'openai-chat': { json: decodeChatJson, stream: decodeChatStream },
  'openai-responses': { json: decodeResponseObject, stream: decodeResponsesStream },
  'anthropic-messages': { json: decodeMessageJson, stream: decodeMessagesStream },
}

/**
 * The neutral answer in `body`, or `undefined` when there is no whole model turn to keep: a
 * dialect that is not a model turn (embeddings, the model list), a body that is not the
 * dialect's answer, or a stream that failed or was cut before it finished.
 * @example
 * decodeUpstreamResponse('openai-chat', 'application/json', bytes) // { content: [...], finishReason: 'stop', usage }
 */
export function decodeUpstreamResponse(dialect: Dialect, contentType: string, body: Uint8Array): ModelResponse | undefined {
  const decoder = decoders[dialect]
  if (!decoder) return undefined
  const text = bodyText(body)
  if (isEventStream(contentType)) return decoder.stream(text)
  const json = parseJson(text)
  return json === undefined ? undefined : decoder.json(json)
}
