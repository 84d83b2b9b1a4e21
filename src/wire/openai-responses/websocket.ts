/**
 * OpenAI Responses over WebSocket (`GET /v1/responses` with `Upgrade: websocket`, as Codex and
 * `@openai/agents` `useResponsesWebSocket` send it): each client message `response.create`
 * carries the body of a `POST /v1/responses` (without `stream`); the server answers with the
 * events of the SSE stream, one JSON message each. Pure: no server, no socket.
 * @module
 */

/** The client message that asks for a response. */
export const RESPONSE_CREATE = 'response.create'

/**
 * The `POST /v1/responses` body a `response.create` message stands for: the message without
 * its `type` (and without `generate`, which only the WebSocket reads), always streamed.
 * @example
 * responseCreateBody({ type: 'response.create', model: 'gpt-5', input: 'hi' }) // { model: 'gpt-5', input: 'hi', stream: true }
 */
export function responseCreateBody(message: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, generate: _generate, ...body } = message
  return { ...body, stream: true }
}

/**
 * Whether the message only warms the connection up (`generate: false`, Codex's "prewarm"): the
 * response is created and completed with no output, and the model is not asked.
 */
export function isWarmup(message: Record<string, unknown>): boolean {
  return message.generate === false
}

/**
 * The `error` event the WebSocket sends where HTTP would answer `status` with `body` (an OpenAI
 * error body `{ error: { type, code, message, param } }`): the status travels in the event.
 * @example
 * errorEvent(400, { error: { type: 'invalid_request_error', code: 'previous_response_not_found', message: '…', param: 'previous_response_id' } })
 */
export function errorEvent(status: number, body: unknown): Record<string, unknown> {
  const error = (body as { error?: Record<string, unknown> } | null)?.error
  const fields = typeof error === 'object' && error !== null ? error : { message: typeof body === 'string' ? body : JSON.stringify(body) }
  return {
    type: 'error',
    status,
    error: {
      type: fields.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
      code: fields.code ?? null,
      message: fields.message ?? `error ${status}`,
      param: fields.param ?? null,
    },
  }
}

/**
 * Splits SSE text into the data of its events, keeping an unfinished event for the next chunk:
 * feed it the stream's text in pieces; each call returns the `data:` payloads completed so far.
 */
export class SseDataReader {
  #rest = ''

  /** The data of the events `text` completes. */
  push(text: string): string[] {
    const all = this.#rest + text
    const blocks = all.split('\n\n')
    this.#rest = blocks.pop() ?? ''
    const data: string[] = []
    for (const block of blocks) {
      const lines: string[] = []
      for (const line of block.split('\n')) if (line.startsWith('data:')) lines.push(line.slice(line[5] === ' ' ? 6 : 5))
      if (lines.length > 0) data.push(lines.join('\n'))
    }
    return data
  }
}
