import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText, Output, stepCountIs, streamText, tool, type LanguageModel } from 'ai'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'
import { listLLM, startProxy, text, toolCall } from './helpers.js'

// The Anthropic provider warns about the unknown model id on every call; the tests expect it.
;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

type Provider = { name: string; dialect: string; model: (proxy: FakeProxy) => LanguageModel }

const providers: Provider[] = [
  { name: '@ai-sdk/openai (Responses)', dialect: 'openai-responses', model: (p) => createOpenAI({ apiKey: 'k', baseURL: `${p.url}/v1` })('gpt-4o-mini') },
  { name: '@ai-sdk/openai .chat', dialect: 'openai-chat', model: (p) => createOpenAI({ apiKey: 'k', baseURL: `${p.url}/v1` }).chat('gpt-4o-mini') },
  { name: '@ai-sdk/anthropic', dialect: 'anthropic-messages', model: (p) => createAnthropic({ apiKey: 'k', baseURL: `${p.url}/v1` })('my-fake-model') },
]

const weather = tool({
  description: 'weather by city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temp: 20 }),
})

describe.each(providers)('the AI SDK through $name', ({ dialect, model }) => {
  test('generateText answers with text, usage and finish reason', async () => {
    const proxy = await startProxy({ llm: listLLM(text('Hello from fake', { inputTokens: 10, outputTokens: 5 })) })
    const result = await generateText({ model: model(proxy), system: 'be brief', prompt: 'hi', maxRetries: 0 })
    expect(result.text).toBe('Hello from fake')
    expect(result.finishReason).toBe('stop')
    expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 })
    expect(proxy.requests[0]).toMatchObject({ dialect, request: { system: 'be brief' } })
  })

  test('streamText streams text in deltas with usage', async () => {
    const proxy = await startProxy({ llm: listLLM(text('Hello from fake', { inputTokens: 10, outputTokens: 5 })) })
    const result = streamText({ model: model(proxy), prompt: 'hi', maxRetries: 0, onError: () => {} })
    const chunks: string[] = []
    for await (const chunk of result.textStream) chunks.push(chunk)
    expect(chunks.join('')).toBe('Hello from fake')
    expect(chunks.length).toBeGreaterThan(1)
    expect(await result.finishReason).toBe('stop')
    expect(await result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 })
    expect(proxy.requests[0].stream).toBe(true)
  })

  test('Output.object gives a parsed object', async () => {
    const proxy = await startProxy({ llm: listLLM(text('{"answer":42}')) })
    const result = await generateText({
      model: model(proxy),
      prompt: 'answer',
      maxRetries: 0,
      output: Output.object({ schema: z.object({ answer: z.number() }) }),
    })
    expect(result.output).toEqual({ answer: 42 })
    expect(proxy.requests[0].request.responseFormat).toMatchObject({ type: 'json' })
  })

  test('a streamed tool call arrives whole, its arguments joined from several deltas', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('weather', { city: 'Paris' }, 'call_9')) })
    const result = streamText({ model: model(proxy), prompt: 'weather?', tools: { weather }, maxRetries: 0, onError: () => {} })
    const deltas: string[] = []
    for await (const part of result.fullStream) if (part.type === 'tool-input-delta') deltas.push(part.delta)
    const calls = await result.toolCalls
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ toolCallId: 'call_9', toolName: 'weather', input: { city: 'Paris' } })
    expect(deltas.filter((d) => d !== '').length).toBeGreaterThanOrEqual(2)
  })

  test('a two-step tool loop sends the tool result back and ends with text', async () => {
    const llm = listLLM(toolCall('weather', { city: 'Paris' }, 'call_1'), text('It is 20 degrees in Paris.'))
    const proxy = await startProxy({ llm })
    const result = await generateText({ model: model(proxy), prompt: 'weather in Paris?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0 })
    expect(result.text).toBe('It is 20 degrees in Paris.')
    expect(result.steps).toHaveLength(2)
    const second = llm.seen[1]
    expect(second.messages.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'weather', args: { city: 'Paris' } }] })
    const last = second.messages.at(-1)
    expect(last?.role).toBe('tool')
    expect(last?.content[0]).toMatchObject({ type: 'tool-result', id: 'call_1', name: 'weather' })
    expect(JSON.stringify(last?.content[0])).toContain('20')
  })

  test('a streamed two-step tool loop works too', async () => {
    const llm = listLLM(toolCall('weather', { city: 'Oslo' }, 'call_2'), text('Cold.'))
    const proxy = await startProxy({ llm })
    const result = streamText({ model: model(proxy), prompt: 'weather in Oslo?', tools: { weather }, stopWhen: stepCountIs(3), maxRetries: 0, onError: () => {} })
    expect(await result.text).toBe('Cold.')
    expect(proxy.requests).toHaveLength(2)
  })
})

test('Output.object through @ai-sdk/anthropic with a Claude id uses output_config and gets JSON text', async () => {
  const proxy = await startProxy({ llm: listLLM(text('{"answer":7}')) })
  const model = createAnthropic({ apiKey: 'k', baseURL: `${proxy.url}/v1` })('claude-sonnet-4-6')
  const result = await generateText({ model, prompt: 'answer', maxRetries: 0, output: Output.object({ schema: z.object({ answer: z.number() }) }) })
  expect(result.output).toEqual({ answer: 7 })
  expect(proxy.requests[0].request.tools).toBeUndefined()
  expect(proxy.requests[0].request.responseFormat).toMatchObject({ type: 'json' })
})

test('Responses item_reference inputs decode to the text the proxy sent earlier', async () => {
  const llm = listLLM(text('first answer'), text('second answer'))
  const proxy = await startProxy({ llm })
  const model = createOpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1` })('gpt-4o-mini')
  const first = await generateText({ model, prompt: 'one', maxRetries: 0 })
  await generateText({ model, messages: [{ role: 'user', content: 'one' }, ...first.response.messages, { role: 'user', content: 'two' }], maxRetries: 0 })
  const input = (proxy.requests[1].json as { input: { type?: string }[] }).input
  expect(input.some((item) => item.type === 'item_reference')).toBe(true)
  expect(llm.seen[1].messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'one' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
    { role: 'user', content: [{ type: 'text', text: 'two' }] },
  ])
})

test('streamed structured output through Anthropic’s forced json tool survives a reasoning block', async () => {
  const proxy = await startProxy({ llm: new ScriptedLLM([{ reasoning: 'think first', text: '{"answer":42}' }]) })
  const model = createAnthropic({ apiKey: 'k', baseURL: `${proxy.url}/v1` })('my-fake-model')
  const result = streamText({ model, prompt: 'answer', maxRetries: 0, output: Output.object({ schema: z.object({ answer: z.number() }) }) })
  expect(await result.output).toEqual({ answer: 42 })
})

test('a scripted error reaches the AI SDK at once: its retries are told to come back after 1 ms', async () => {
  const llm = new ScriptedLLM([new Error('boom')])
  const proxy = await startProxy({ llm })
  const model = createOpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1` }).chat('gpt-4o-mini')
  const started = performance.now()
  // The AI SDK retries every 500 (it ignores x-should-retry): the first attempt fails with the
  // scripted error, the retries find the script exhausted — all without the 2 s + 4 s backoff.
  await expect(generateText({ model, prompt: 'hi' })).rejects.toThrow(/Failed after 3 attempts.*script exhausted/s)
  expect(performance.now() - started).toBeLessThan(1900)
  expect(llm.callCount).toBe(3)
})
