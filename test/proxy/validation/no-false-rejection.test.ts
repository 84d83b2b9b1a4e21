/**
 * Validation is on by default, so it must never reject what the real SDKs send in their tool
 * loops and structured-output flows (SPEC §10.3): openai (Chat and Responses, tools, parse with
 * zod), @anthropic-ai/sdk (tools), the AI SDK (tools, structured output, three providers),
 * @openai/agents and LangChain (tools, withStructuredOutput).
 */
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import type Anthropic from '@anthropic-ai/sdk'
import { ChatAnthropic } from '@langchain/anthropic'
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages'
import { tool as langchainTool } from '@langchain/core/tools'
import { ChatOpenAI } from '@langchain/openai'
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool as agentTool } from '@openai/agents'
import { Output, generateText, stepCountIs, tool as aiTool } from 'ai'
import OpenAI from 'openai'
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import '../../matchers/setup-expect.js'
import { anthropicFor, listLLM, openaiFor, startProxy, text, toolCall } from '../helpers.js'

// The AI SDK warns that gpt-5 ignores the temperature these flows send on purpose.
;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

const weather = z.object({ city: z.string() })
const answer = z.object({ city: z.string(), celsius: z.number() })
const lookupThenDone = () => listLLM(toolCall('lookup', { city: 'Paris' }, 'call_1'), text('It is sunny.'))

describe('openai', () => {
  test('Chat: a tool loop, then parse() with a zod format', async () => {
    const proxy = await startProxy({ llm: lookupThenDone() })
    const client = openaiFor(proxy)
    const tools = [{ type: 'function' as const, function: { name: 'lookup', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }]
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in Paris?' }]
    const first = await client.chat.completions.create({ model: 'gpt-5', messages, tools, tool_choice: 'auto', temperature: 0, max_completion_tokens: 100 })
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: first.choices[0].message.tool_calls?.[0].id ?? '', content: 'sunny' })
    const second = await client.chat.completions.create({ model: 'gpt-5', messages, tools })
    expect(second.choices[0].message.content).toBe('It is sunny.')
    proxy.use(listLLM(text(JSON.stringify({ city: 'Paris', celsius: 21 }))))
    const parsed = await client.chat.completions.parse({ model: 'gpt-5', messages: [{ role: 'user', content: 'json' }], response_format: zodResponseFormat(answer, 'answer') })
    expect(parsed.choices[0].message.parsed).toEqual({ city: 'Paris', celsius: 21 })
    expect(proxy).toHaveSentValidRequests()
    expect(proxy.requests).toHaveLength(3)
  })

  test('Responses: a tool loop with the whole history, then parse() with a zod text format', async () => {
    const proxy = await startProxy({ llm: lookupThenDone() })
    const client = openaiFor(proxy)
    const tools = [{ type: 'function' as const, name: 'lookup', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true }]
    const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Weather in Paris?' }]
    const first = await client.responses.create({ model: 'gpt-5', input, tools, instructions: 'Be brief.', max_output_tokens: 100 })
    const call = first.output.find((item) => item.type === 'function_call')
    if (call?.type !== 'function_call') throw new Error('expected a function call')
    input.push(call, { type: 'function_call_output', call_id: call.call_id, output: 'sunny' })
    const second = await client.responses.create({ model: 'gpt-5', input, tools, stream: false })
    expect(second.output_text).toBe('It is sunny.')
    proxy.use(listLLM(text(JSON.stringify({ city: 'Paris', celsius: 21 }))))
    const parsed = await client.responses.parse({ model: 'gpt-5', input: 'json', text: { format: zodTextFormat(answer, 'answer') } })
    expect(parsed.output_parsed).toEqual({ city: 'Paris', celsius: 21 })
    expect(proxy).toHaveSentValidRequests()
  })
})

test('@anthropic-ai/sdk: a tool loop, streamed and not', async () => {
  const proxy = await startProxy({ llm: listLLM(toolCall('lookup', { city: 'Paris' }, 'toolu_1'), text('It is sunny.')) })
  const client = anthropicFor(proxy)
  const tools = [{ name: 'lookup', description: 'Weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }]
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
  const first = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, system: 'Be brief.', messages, tools })
  const use = first.content.find((block) => block.type === 'tool_use')
  if (use?.type !== 'tool_use') throw new Error('expected a tool_use block')
  messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] })
  const second = await client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 256, messages, tools }).finalMessage()
  expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'It is sunny.' })])
  expect(proxy).toHaveSentValidRequests()
})

describe('the AI SDK', () => {
  const providers = {
    'openai responses': (url: string) => createOpenAI({ apiKey: 'k', baseURL: `${url}/v1` }).responses('gpt-5'),
    'openai chat': (url: string) => createOpenAI({ apiKey: 'k', baseURL: `${url}/v1` }).chat('gpt-5'),
    anthropic: (url: string) => createAnthropic({ apiKey: 'k', baseURL: `${url}/v1` })('claude-sonnet-4-5'),
  }

  test.each(Object.entries(providers))('%s: generateText with a tool loop, then structured output', async (_name, model) => {
    const proxy = await startProxy({ llm: lookupThenDone() })
    const result = await generateText({
      model: model(proxy.url),
      system: 'Be brief.',
      prompt: 'Weather in Paris?',
      tools: { lookup: aiTool({ description: 'Weather', inputSchema: weather, execute: async () => 'sunny' }) },
      stopWhen: stepCountIs(3),
      temperature: 0.5,
      maxOutputTokens: 200,
      maxRetries: 0,
    })
    expect(result.text).toBe('It is sunny.')
    proxy.use(listLLM(text(JSON.stringify({ city: 'Paris', celsius: 21 }))))
    const structured = await generateText({ model: model(proxy.url), prompt: 'json', output: Output.object({ schema: answer }), maxRetries: 0 })
    expect(structured.output).toEqual({ city: 'Paris', celsius: 21 })
    expect(proxy).toHaveSentValidRequests()
    expect(proxy.requests).toHaveLength(3)
  })
})

describe('@openai/agents', () => {
  test.each(['responses', 'chat completions'])('a run with a tool over %s', async (api) => {
    const proxy = await startProxy({ llm: lookupThenDone() })
    setTracingDisabled(true)
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: openaiFor(proxy) as never, useResponses: api === 'responses' }) })
    const lookup = agentTool({ name: 'lookup', description: 'Weather', parameters: weather, execute: async () => 'sunny' })
    const agent = new Agent({ name: 'Forecaster', instructions: 'Be brief.', model: 'gpt-5', tools: [lookup] })
    const result = await runner.run(agent, 'Weather in Paris?')
    expect(result.finalOutput).toBe('It is sunny.')
    expect(proxy).toHaveSentValidRequests()
    expect(proxy.requests).toHaveLength(2)
  })
})

describe('LangChain', () => {
  const lookup = langchainTool(async () => 'sunny', { name: 'lookup', description: 'Weather', schema: weather })

  test('ChatOpenAI: tools, then withStructuredOutput (json schema and function calling)', async () => {
    const proxy = await startProxy({ llm: lookupThenDone() })
    const chat = new ChatOpenAI({ model: 'gpt-4o', apiKey: 'k', configuration: { baseURL: `${proxy.url}/v1` }, maxRetries: 0 })
    const withTools = chat.bindTools([lookup])
    const first = await withTools.invoke([new HumanMessage('Weather in Paris?')])
    const call = first.tool_calls?.[0]
    expect(call?.name).toBe('lookup')
    const second = await withTools.invoke([new HumanMessage('Weather in Paris?'), first, new ToolMessage({ tool_call_id: call?.id ?? '', content: 'sunny' })])
    expect(second.content).toBe('It is sunny.')
    proxy.use(listLLM(text(JSON.stringify({ city: 'Paris', celsius: 21 }))))
    expect(await chat.withStructuredOutput(answer, { name: 'answer' }).invoke('json')).toEqual({ city: 'Paris', celsius: 21 })
    proxy.use(listLLM(toolCall('answer', { city: 'Paris', celsius: 21 })))
    expect(await chat.withStructuredOutput(answer, { name: 'answer', method: 'functionCalling' }).invoke('json')).toEqual({ city: 'Paris', celsius: 21 })
    expect(proxy).toHaveSentValidRequests()
    expect(proxy.requests).toHaveLength(4)
  })

  test('ChatAnthropic: tools, then withStructuredOutput', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('lookup', { city: 'Paris' }, 'toolu_1'), text('It is sunny.')) })
    const chat = new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'k', anthropicApiUrl: proxy.url, maxRetries: 0 })
    const withTools = chat.bindTools([lookup])
    const first = await withTools.invoke([new HumanMessage('Weather in Paris?')])
    const call = first.tool_calls?.[0]
    expect(call?.name).toBe('lookup')
    const second = await withTools.invoke([new HumanMessage('Weather in Paris?'), first as AIMessage, new ToolMessage({ tool_call_id: call?.id ?? '', content: 'sunny' })])
    expect(second.content).toBe('It is sunny.')
    proxy.use(listLLM(toolCall('answer', { city: 'Paris', celsius: 21 }, 'toolu_2')))
    expect(await chat.withStructuredOutput(answer, { name: 'answer' }).invoke('json')).toEqual({ city: 'Paris', celsius: 21 })
    expect(proxy).toHaveSentValidRequests()
    expect(proxy.requests).toHaveLength(3)
  })
})
