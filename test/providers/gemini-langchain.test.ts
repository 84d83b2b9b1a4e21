/**
 * Gemini through `@langchain/google-genai` (which speaks through `@google/generative-ai`), with
 * its `baseUrl` on the FakeProxy: invoke, stream, tool calls, structured output, errors and
 * embeddings.
 */
import { ChatGoogleGenerativeAI, GoogleGenerativeAIEmbeddings } from '@langchain/google-genai'
import { HumanMessage, SystemMessage } from '@langchain/core/messages'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { scriptedLLM, toolCall } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

function chatFor(proxy: FakeProxy, maxRetries = 0): ChatGoogleGenerativeAI {
  return new ChatGoogleGenerativeAI({ apiKey: 'test-key', model: 'gemini-2.5-flash', baseUrl: proxy.url, maxRetries })
}

describe('Gemini through @langchain/google-genai', () => {
  test('invoke answers text with usage, system prompt and message recorded', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hi there.'], { usage: { inputTokens: 6, outputTokens: 3 } }) })
    const answer = await chatFor(proxy).invoke([new SystemMessage('Be brief.'), new HumanMessage('Hello')])
    expect(answer.content).toBe('Hi there.')
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 6, output_tokens: 3, total_tokens: 9 })
    expect(proxy.requests[0]).toMatchObject({ dialect: 'gemini-generate', model: 'gemini-2.5-flash', request: { system: 'Be brief.' } })
  })

  test('stream yields the reply in several chunks', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three']) })
    const chunks: string[] = []
    for await (const chunk of await chatFor(proxy).stream('count')) chunks.push(String(chunk.content))
    expect(chunks.join('')).toBe('one two three')
    expect(chunks.filter((chunk) => chunk !== '').length).toBeGreaterThan(1)
    expect(proxy.requests[0].stream).toBe(true)
  })

  test('bindTools: the model’s call comes back as a LangChain tool call', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Lima' })]) })
    const model = chatFor(proxy).bindTools([{ name: 'get_weather', description: 'weather by city', schema: z.object({ city: z.string() }) }])
    const answer = await model.invoke('Weather in Lima?')
    expect(answer.tool_calls?.map((call) => [call.name, call.args])).toEqual([['get_weather', { city: 'Lima' }]])
    expect(proxy.requests[0].request.tools?.[0].name).toBe('get_weather')
  })

  test('withStructuredOutput asks for JSON and parses the object the script answers', async () => {
    const proxy = await startProxy({ llm: scriptedLLM((req) => (req.responseFormat ? '{"value":42}' : 'not JSON')) })
    const structured = chatFor(proxy).withStructuredOutput(z.object({ value: z.number() }), { name: 'answer' })
    expect(await structured.invoke('What is six times seven?')).toEqual({ value: 42 })
    expect(proxy.requests[0].request.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object', properties: { value: { type: 'number' } } } })
  })

  test('a 502 is retried by LangChain’s caller; a 429 without a retry hint stops at once, as LangChain does', async () => {
    const proxy = await startProxy()
    proxy.refuse('upstream_unreachable', { times: 1 })
    const answer = await chatFor(proxy, 1).invoke('hi')
    expect(answer.content).not.toBe('')
    expect(proxy.refusals.map((refusal) => refusal.status)).toEqual([502])
    proxy.refuse('rate_limited', { times: 2 })
    const error = await chatFor(proxy, 2).invoke('hi').catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'RateLimitCapacityError', message: expect.stringMatching(/429 Too Many Requests\] rate limited/) })
    expect(proxy.refusals.map((refusal) => refusal.status)).toEqual([502, 429])
  })

  test('a final status rejects at once with the Gemini message', async () => {
    const proxy = await startProxy({ agents: ['researcher'] })
    proxy.refuse('agent_unknown', { message: 'who are you' })
    await expect(chatFor(proxy, 2).invoke('hi')).rejects.toThrow(/\[403 Forbidden\] who are you/)
    expect(proxy.refusals).toHaveLength(1)
  })

  test('GoogleGenerativeAIEmbeddings embeds a query and documents', async () => {
    const proxy = await startProxy()
    const embeddings = new GoogleGenerativeAIEmbeddings({ apiKey: 'test-key', model: 'gemini-embedding-001', baseUrl: proxy.url })
    const query = await embeddings.embedQuery('cat')
    const documents = await embeddings.embedDocuments(['cat', 'dog'])
    expect(query.length).toBeGreaterThan(0)
    expect(documents[0]).toEqual(query)
    expect(documents[1]).not.toEqual(query)
  })
})
