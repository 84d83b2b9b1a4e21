/**
 * An OpenAI- or Anthropic-compatible origin (a real provider, a local server, a second FakeProxy)
 * as a neutral {@link LLM}: each call is sent to `<origin>/v1/chat/completions` or
 * `<origin>/v1/messages` and its answer read back into the neutral model. Per-test recording
 * (`transcript.upstream` given as an origin) records from it.
 * @module
 */
import type { fetch as undiciFetch } from 'undici'
import { PREFIX } from '../internal/describe.js'
import { streamResponse } from '../llm/stream-events.js'
import type { LLM, ModelRequest, ModelResponse, StreamEvent } from '../llm/types.js'
import { decodeMessageJson } from './anthropic-messages.js'
import { chatRequestBody } from './chat-request.js'
import { upstreamUrl } from './forward.js'
import { messagesRequestBody } from './messages-request.js'
import { decodeChatJson } from './openai-chat.js'
import { parseJson } from './sse-events.js'

/** The API an origin is asked through. */
export type OriginApi = 'openai' | 'anthropic'

/** How each API is asked: its path, its body, its auth headers and how its answer reads. */
const APIS: Record<OriginApi, { path: string; body(request: ModelRequest): unknown; headers(): Record<string, string>; decode(json: unknown): ModelResponse | undefined; answer: string }> = {
  openai: {
    path: '/v1/chat/completions',
    body: chatRequestBody,
    headers: (): Record<string, string> => (process.env.OPENAI_API_KEY ? { authorization: `Bearer ${process.env.OPENAI_API_KEY}` } : {}),
    decode: decodeChatJson,
    answer: 'a Chat completion',
  },
  anthropic: {
    path: '/v1/messages',
    body: messagesRequestBody,
    headers: () => ({ 'anthropic-version': '2023-06-01', ...(process.env.ANTHROPIC_API_KEY && { 'x-api-key': process.env.ANTHROPIC_API_KEY }) }),
    decode: decodeMessageJson,
    answer: 'a Messages message',
  },
}

/** True for an http(s) URL without query or fragment: what an origin may be. */
export function isOriginUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === ''
  } catch {
    return false
  }
}

/**
 * The LLM that asks `origin` through the Chat Completions API (`api: 'openai'`, with
 * `OPENAI_API_KEY` when set) or the Messages API (`api: 'anthropic'`, with `ANTHROPIC_API_KEY`),
 * without streaming (a streamed call gets the whole answer as a stream of events). Like record
 * mode, it goes through its own connection, never the network guard's, and leaves no socket open
 * after a call.
 * @example
 * const upstream = originLLM('http://127.0.0.1:4000') // POST http://127.0.0.1:4000/v1/chat/completions
 * @throws {Error} (from `generate`/`stream`) the origin is unreachable or does not answer with a model turn.
 */
export function originLLM(origin: string, api: OriginApi = 'openai'): LLM {
  const generate = (request: ModelRequest): Promise<ModelResponse> => askOrigin(upstreamUrl(origin, APIS[api].path), api, request)
  return {
    generate,
    stream: (request): AsyncIterable<StreamEvent> => ({
      async *[Symbol.asyncIterator]() {
        yield* streamResponse(await generate(request), 'words')
      },
    }),
  }
}

async function askOrigin(url: string, api: OriginApi, request: ModelRequest): Promise<ModelResponse> {
  const { body, headers, decode, answer: expected } = APIS[api]
  // Loaded on the first call, as record mode loads it (forward.ts): the proxy must load without
  // undici where only proxy.fetch can run.
  const { Agent, fetch: undiciFetch } = await import('undici')
  const agent = new Agent()
  try {
    let answer: Awaited<ReturnType<typeof undiciFetch>>
    try {
      answer = await undiciFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers() },
        body: JSON.stringify(body(request)),
        dispatcher: agent,
      })
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message
      throw new Error(`${PREFIX} transcript upstream ${url} is unreachable: ${cause}`, { cause: error })
    }
    const text = await answer.text()
    if (answer.status < 200 || answer.status > 299) throw new Error(`${PREFIX} transcript upstream ${url} answered ${answer.status}: ${text.slice(0, 500)}`)
    const response = decode(parseJson(text))
    if (!response) throw new Error(`${PREFIX} transcript upstream ${url} did not answer ${expected}: ${text.slice(0, 500)}`)
    return response
  } finally {
    await agent.close()
  }
}
