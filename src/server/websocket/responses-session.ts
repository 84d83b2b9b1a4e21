/**
 * OpenAI Responses over WebSocket (SPEC §18): each `response.create` is served as the
 * `POST /v1/responses` it stands for, by the proxy's own hot path (in process, no socket), so
 * checks, refusals, planned errors, faults, records and the brain are exactly HTTP's; the SSE
 * events it streams go out as one message each. Responses are answered one at a time, in order.
 * @module
 */
import { frameData } from '../../wire/dialect.js'
import { handleRequest } from '../handle-request.js'
import { inProcessTransport, type InProcessTransport } from '../in-process.js'
import { answerCrash } from '../crash-answer.js'
import { serverErrorBody } from '../server-errors.js'
import { BadRequest } from '../../wire/dialect.js'
import { openaiResponses } from '../../wire/openai-responses/codec.js'
import { RESPONSE_CREATE, SseDataReader, errorEvent, isWarmup, responseCreateBody } from '../../wire/openai-responses/websocket.js'
import { MAX_QUEUED_RESPONSES } from './bounds.js'
import { Session, type ClientFault, type SessionContext } from './session.js'

/** Where the in-process request goes; only the path counts. */
const RESPONSES_URL = 'http://agent-doubles.invalid/v1/responses'

/** A Responses WebSocket connection. */
export class ResponsesSession extends Session {
  readonly #transport: InProcessTransport
  readonly #headers: Record<string, string>
  #queue: Promise<void> = Promise.resolve()
  #queued = 0

  constructor(context: SessionContext) {
    super(context, 'openai-responses')
    const state = this.state
    this.#transport = inProcessTransport(
      // Each response's record names this session, as a Realtime or Live turn's does.
      (req, res) => handleRequest(req, res, state, this.record.id),
      (res, error) => answerCrash(res.req ?? ({ method: 'POST', url: '/v1/responses', headers: {} } as never), res, error, serverErrorBody),
    )
    // The upgrade's headers travel with every response: credentials and X-Viper-* identity.
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(context.req.headers)) {
      if (value === undefined || name === 'host' || name === 'connection' || name === 'upgrade' || name.startsWith('sec-websocket-')) continue
      headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    headers['content-type'] = 'application/json'
    this.#headers = headers
  }

  protected onEvent(event: Record<string, unknown>): void {
    if (event.type !== RESPONSE_CREATE) {
      return this.sendFault({ code: 'invalid_value', param: 'type', message: `Invalid value: ${JSON.stringify(event.type)}. Supported values are: '${RESPONSE_CREATE}'.` })
    }
    if (this.#queued >= MAX_QUEUED_RESPONSES) {
      return this.sendFault({ code: 'too_many_requests', message: `More than ${MAX_QUEUED_RESPONSES} responses are queued on this connection; wait for response.completed before sending more.` })
    }
    this.#queued++
    this.#queue = this.#queue.then(() => this.#create(event)).finally(() => this.#queued--)
  }

  protected sendFault(fault: ClientFault): void {
    this.send(errorEvent(400, { error: { type: 'invalid_request_error', code: fault.code, message: fault.message, param: fault.param ?? null } }))
  }

  protected onClosed(): void {
    this.#transport.close()
  }

  async #create(event: Record<string, unknown>): Promise<void> {
    if (this.closed) return
    if (isWarmup(event)) return this.#warmup(event)
    let response: Response
    try {
      response = await this.#transport.fetch(RESPONSES_URL, { method: 'POST', headers: this.#headers, body: JSON.stringify(responseCreateBody(event)) })
    } catch {
      return // the session closed under it
    }
    const streamed = response.status === 200 && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    if (!streamed) return this.#sendAnswer(response)
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    const sse = new SseDataReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done || this.closed) break
        for (const data of sse.push(decoder.decode(value, { stream: true }))) {
          const room = this.send(data)
          if (room) await room
        }
      }
    } catch {
      // Cut mid-answer (a planned `disconnect` fault, or the session closed): the connection goes too.
      if (!this.closed) this.drop()
    } finally {
      if (this.closed) await reader.cancel().catch(() => {})
    }
  }

  /** A whole (not streamed) answer: an error as the `error` event, a planned `reply()` as the completed response. */
  async #sendAnswer(response: Response): Promise<void> {
    const text = await response.text().catch(() => '')
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // kept as text
    }
    if (response.status !== 200) this.send(errorEvent(response.status, body))
    else this.send({ type: 'response.completed', sequence_number: 0, response: body })
  }

  /**
   * Codex's prewarm (`generate: false`): a response created and completed with no output, the
   * brain not asked and nothing recorded; its input (messages, developer text, offered tools) is
   * remembered under its id by the encoder, so the next `response.create` can continue from it
   * with `previous_response_id`.
   */
  #warmup(event: Record<string, unknown>): void {
    const json = responseCreateBody(event)
    const id = this.state.nextId()
    let request
    try {
      request = openaiResponses.decode(json, undefined, this.state.memory)
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error
      return this.sendFault({ code: error.detail.code ?? 'invalid_value', message: error.message, param: error.param })
    }
    const context = { request, json, id, created: Math.floor(Date.now() / 1000), memory: this.state.memory }
    const encode = openaiResponses.encodeStream(context, (frame) => void this.send(frameData(frame)))
    encode({ type: 'finish', response: { content: [], finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0 }, model: request.model } })
  }
}
