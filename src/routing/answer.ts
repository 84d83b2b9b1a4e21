/**
 * Answering a request in place of the network, so a refused call ends as an HTTP response its
 * client does not retry (SPEC §22: a connection error is retried by every SDK — the openai
 * client spent 1.4 s on it — while a 4xx with `x-should-retry: false` is not).
 * @module
 */
import { Duplex } from 'node:stream'
import type { Dispatcher } from 'undici'

/** A whole response: status, headers and a body, sent at once. */
export interface GuardAnswer {
  status: number
  statusText: string
  headers: Record<string, string>
  body: string
}

/** The answer's headers, content length included. */
function headersOf(answer: GuardAnswer, body: Buffer): Array<[string, string]> {
  return [...Object.entries(answer.headers), ['content-length', String(body.byteLength)]]
}

/**
 * Gives `handler` the answer as if a server had sent it, in whichever handler API it speaks
 * (undici 7's `onResponseStart`… or the older `onConnect`/`onHeaders`…), on a later turn as a
 * dispatcher would. Nothing is sent anywhere.
 */
export function answerDispatch(handler: Dispatcher.DispatchHandler, answer: GuardAnswer): void {
  const body = Buffer.from(answer.body)
  const headers = headersOf(answer, body)
  const legacy = handler as Dispatcher.DispatchHandler & {
    onConnect?(abort: (error?: Error) => void, context?: object): void
    onHeaders?(status: number, raw: Buffer[], resume: () => void, statusText: string): boolean
    onData?(chunk: Buffer): boolean
    onComplete?(trailers: Buffer[] | null): void
  }
  queueMicrotask(() => {
    if (typeof handler.onResponseStart === 'function') {
      let aborted = false
      const controller = {
        get aborted() { return aborted },
        paused: false,
        reason: null,
        abort() { aborted = true },
        pause() {},
        resume() {},
      } as unknown as Dispatcher.DispatchController
      handler.onRequestStart?.(controller, {})
      if (aborted) return
      handler.onResponseStart(controller, answer.status, Object.fromEntries(headers), answer.statusText)
      if (aborted) return
      handler.onResponseData?.(controller, body)
      if (!aborted) handler.onResponseEnd?.(controller, {})
      return
    }
    let aborted = false
    legacy.onConnect?.(() => (aborted = true), {})
    if (aborted) return
    legacy.onHeaders?.(answer.status, headers.flatMap(([name, value]) => [Buffer.from(name), Buffer.from(value)]), () => {}, answer.statusText)
    if (aborted) return
    legacy.onData?.(body)
    if (!aborted) legacy.onComplete?.([])
  })
}

/**
 * A socket for `node:http`'s `createConnection` that answers the first request written to it
 * with `answer` and then ends: the client parses a real HTTP/1.1 response, and nothing leaves
 * the process.
 */
export function answeringSocket(answer: GuardAnswer): Duplex {
  const body = Buffer.from(answer.body)
  const head = [`HTTP/1.1 ${answer.status} ${answer.statusText}`, ...headersOf(answer, body).map(([name, value]) => `${name}: ${value}`), 'connection: close', '', ''].join('\r\n')
  let answered = false
  const socket: Duplex = new Duplex({
    read() {},
    write(_chunk, _encoding, callback) {
      if (!answered) {
        answered = true
        socket.push(Buffer.concat([Buffer.from(head, 'latin1'), body]))
        socket.push(null)
      }
      callback()
    },
  })
  return socket
}
