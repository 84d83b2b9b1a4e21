/**
 * An OpenAI-compatible origin (a real provider, a local server, a second FakeProxy) as a neutral
 * {@link LLM}: each call is sent to `<origin>/v1/chat/completions` and its answer read back into
 * the neutral model. Per-test recording (`transcript.upstream` as a URL) records from it.
 * @module
 */
import { Agent, fetch as undiciFetch } from 'undici'
import { PREFIX } from '../../internal/describe.js'
import { streamResponse } from '../../llm/stream-events.js'
import type { LLM, ModelRequest, ModelResponse, StreamEvent } from '../../llm/types.js'
import { chatRequestBody } from './chat-request.js'
import { upstreamUrl } from './forward.js'
import { decodeChatJson } from './openai-chat.js'
import { parseJson } from './sse-events.js'

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
 * The LLM that asks `origin` through the Chat Completions API, without streaming (a streamed
 * call gets the whole answer as a stream of events). The API key is `OPENAI_API_KEY`'s, when
 * set. Like record mode, it goes through its own connection, never the network guard's, and
 * leaves no socket open after a call.
 * @example
 * const upstream = originLLM('http://127.0.0.1:4000') // POST http://127.0.0.1:4000/v1/chat/completions
 * @throws {Error} (from `generate`/`stream`) the origin is unreachable or does not answer a Chat completion.
 */
export function originLLM(origin: string): LLM {
  const url = upstreamUrl(origin, '/v1/chat/completions')
  const generate = (request: ModelRequest): Promise<ModelResponse> => askOrigin(url, request)
  return {
    generate,
    stream: (request): AsyncIterable<StreamEvent> => ({
      async *[Symbol.asyncIterator]() {
        yield* streamResponse(await generate(request), 'words')
      },
    }),
  }
}

async function askOrigin(url: string, request: ModelRequest): Promise<ModelResponse> {
  const agent = new Agent()
  try {
    const key = process.env.OPENAI_API_KEY
    let answer: Awaited<ReturnType<typeof undiciFetch>>
    try {
      answer = await undiciFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key && { authorization: `Bearer ${key}` }) },
        body: JSON.stringify(chatRequestBody(request)),
        dispatcher: agent,
      })
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message
      throw new Error(`${PREFIX} transcript upstream ${url} is unreachable: ${cause}`, { cause: error })
    }
    const text = await answer.text()
    if (answer.status < 200 || answer.status > 299) throw new Error(`${PREFIX} transcript upstream ${url} answered ${answer.status}: ${text.slice(0, 500)}`)
    const response = decodeChatJson(parseJson(text))
    if (!response) throw new Error(`${PREFIX} transcript upstream ${url} did not answer a Chat completion: ${text.slice(0, 500)}`)
    return response
  } finally {
    await agent.close()
  }
}
