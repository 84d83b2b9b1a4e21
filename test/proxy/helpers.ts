/**
 * Shared helpers for the FakeProxy tests: a started proxy closed when the test ends, clients
 * pointed at it, and a tiny hand-written LLM that answers from a list of responses.
 */
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { onTestFinished } from 'vitest'
import { FakeProxy, type FakeProxyOptions } from '../../src/server/fake-proxy.js'
import type { LLM, ModelRequest, ModelResponse, Part, StreamEvent } from '../../src/llm/types.js'

/** A running proxy, closed when the current test finishes. */
export async function startProxy(options?: FakeProxyOptions): Promise<FakeProxy> {
  const proxy = await new FakeProxy(options).start()
  onTestFinished(() => proxy.close())
  return proxy
}

/** An `openai` client on the proxy. */
export function openaiFor(proxy: FakeProxy, options: { maxRetries?: number; logLevel?: 'off' } = {}): OpenAI {
  return new OpenAI({ apiKey: 'test-key', baseURL: `${proxy.url}/v1`, maxRetries: options.maxRetries ?? 0, logLevel: options.logLevel })
}

/** An `@anthropic-ai/sdk` client on the proxy (its base URL excludes `/v1`). */
export function anthropicFor(proxy: FakeProxy, options: { maxRetries?: number; logLevel?: 'off' } = {}): Anthropic {
  return new Anthropic({ apiKey: 'test-key', baseURL: proxy.url, maxRetries: options.maxRetries ?? 0, logLevel: options.logLevel })
}

/** A text answer. */
export function text(value: string, usage = { inputTokens: 7, outputTokens: 3 }): ModelResponse {
  return { content: [{ type: 'text', text: value }], finishReason: 'stop', usage }
}

/** A tool-call answer (optionally after some text). */
export function toolCall(name: string, args: unknown, id = 'call_1', before?: string): ModelResponse {
  const content: Part[] = before ? [{ type: 'text', text: before }] : []
  content.push({ type: 'tool-call', id, name, args })
  return { content, finishReason: 'tool-calls', usage: { inputTokens: 11, outputTokens: 5 } }
}

/**
 * A tiny LLM answering with `responses` in turn (the last one repeats), streaming text in
 * two-character deltas. It records every request it saw in `seen`.
 */
export function listLLM(...responses: ModelResponse[]): LLM & { seen: ModelRequest[] } {
  const seen: ModelRequest[] = []
  const next = (req: ModelRequest): ModelResponse => {
    seen.push(req)
    return responses[Math.min(seen.length - 1, responses.length - 1)]
  }
  return {
    seen,
    async generate(req) {
      return next(req)
    },
    async *stream(req): AsyncGenerator<StreamEvent> {
      const response = next(req)
      for (const part of response.content) {
        if (part.type === 'text') for (let i = 0; i < part.text.length; i += 2) yield { type: 'text-delta', text: part.text.slice(i, i + 2) }
        else if (part.type === 'reasoning') yield { type: 'reasoning-delta', text: part.text }
        else if (part.type === 'tool-call') yield { type: 'tool-call', id: part.id, name: part.name, args: part.args }
      }
      yield { type: 'finish', response }
    },
  }
}

/** Sends a raw HTTP request and returns the status, headers and parsed (or raw) body. */
export async function raw(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const res = await fetch(url, init)
  const textBody = await res.text()
  let body: unknown = textBody
  try {
    body = JSON.parse(textBody)
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body, text: textBody }
}

/** POSTs `json` as JSON. */
export function postJson(url: string, json: unknown, headers: Record<string, string> = {}): ReturnType<typeof raw> {
  return raw(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(json) })
}
