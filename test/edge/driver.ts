/**
 * Runs inside an edge runtime (`@edge-runtime/vm`, the Vercel Edge runtime's globals: no `Buffer`,
 * `require` or Node's `process`): a FakeProxy that is never started serves the real openai and Anthropic
 * SDKs through `proxy.fetch`, JSON and streamed. Bundled by edge-runtime.test.ts, which reads the
 * answers and runs the proxy's matchers on the proxy this returns.
 */
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { FakeProxy, scriptedLLM, toolCall } from '../../src/in-process.js'

export async function drive() {
  const proxy = new FakeProxy({ llm: scriptedLLM([[toolCall('get_weather', { city: 'Paris' })], 'Sunny in Paris.', 'hi there', 'hi again']) })
  const openai = new OpenAI({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch, maxRetries: 0 })
  const anthropic = new Anthropic({ apiKey: 'k', baseURL: 'http://fake', fetch: proxy.fetch, maxRetries: 0 })
  const messages = [{ role: 'user' as const, content: 'weather in Paris?' }]

  const first = await openai.chat.completions.create({ model: 'gpt-5', messages })
  const toolCalled = first.choices[0].message.tool_calls?.map((call) => (call.type === 'function' ? call.function.name : call.type))
  const stream = await openai.chat.completions.create({ model: 'gpt-5', messages, stream: true })
  let streamedText = ''
  let chunks = 0
  for await (const chunk of stream) {
    streamedText += chunk.choices[0]?.delta.content ?? ''
    chunks++
  }
  const message = await anthropic.messages.create({ model: 'claude-x', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] })
  const anthropicStreamed = await anthropic.messages.stream({ model: 'claude-x', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }).finalText()
  const startError = await proxy.start().then(
    () => 'started',
    (error: unknown) => (error as Error).message,
  )
  return {
    proxy,
    toolCalled,
    streamedText,
    chunks,
    anthropicText: message.content.map((part) => (part.type === 'text' ? part.text : part.type)).join(''),
    anthropicStreamed,
    startError,
  }
}
