/**
 * SPEC §10.4: with no script, the default brain obeys forced tool choices and requested
 * schemas — through the real SDKs, LangChain and the AI SDK — and answers a schema that cannot
 * fit with a 400 naming the schema path.
 */
import Anthropic from '@anthropic-ai/sdk'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import { ChatAnthropic } from '@langchain/anthropic'
import { ChatOpenAI } from '@langchain/openai'
import { generateObject } from 'ai'
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { anthropicFor, openaiFor, startProxy } from './helpers.js'

;(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false

const booking = z.object({
  guest: z.string().min(2),
  nights: z.number().int().min(1).max(30),
  rooms: z.array(z.object({ kind: z.enum(['single', 'double']), smoking: z.boolean() })).min(2),
  email: z.email(),
})
const bookingSchema = z.toJSONSchema(booking)
const weatherSchema = { type: 'object', properties: { city: { type: 'string', minLength: 4 } }, required: ['city'] }
const messages = [{ role: 'user' as const, content: 'book it' }]

describe('forced tool choice', () => {
  test('Chat tool_choice "required" calls the first tool; a named function calls that one', async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'weather', parameters: weatherSchema } },
      { type: 'function', function: { name: 'book', parameters: bookingSchema } },
    ]
    const required = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, tool_choice: 'required' })
    const first = required.choices[0]
    expect(first.finish_reason).toBe('tool_calls')
    const firstCall = first.message.tool_calls?.[0]
    expect(firstCall?.type === 'function' && firstCall.function.name).toBe('weather')
    expect(firstCall?.id).toMatch(/^call_[A-Za-z0-9]{24}$/)

    const named = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, tool_choice: { type: 'function', function: { name: 'book' } }, stream: true })
    let args = ''
    let name = ''
    for await (const chunk of named) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        name ||= call.function?.name ?? ''
        args += call.function?.arguments ?? ''
      }
    }
    expect(name).toBe('book')
    expect(booking.safeParse(JSON.parse(args)).success).toBe(true)
  })

  test('Responses tool_choice (required, and a named function) calls the tool with valid arguments', async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: 'function', name: 'weather', parameters: weatherSchema, strict: false },
      { type: 'function', name: 'book', parameters: bookingSchema, strict: false },
    ]
    const named = await client.responses.create({ model: 'gpt-4o-mini', input: 'book it', tools, tool_choice: { type: 'function', name: 'book' } })
    const call = named.output[0]
    expect(call.type === 'function_call' && call.name).toBe('book')
    expect(call.type === 'function_call' && booking.safeParse(JSON.parse(call.arguments)).success).toBe(true)
    expect(call.type === 'function_call' && call.call_id).toMatch(/^call_[A-Za-z0-9]{24}$/)

    const required = await client.responses.create({ model: 'gpt-4o-mini', input: 'weather?', tools, tool_choice: 'required' })
    const weather = required.output[0]
    expect(weather.type === 'function_call' && JSON.parse(weather.arguments)).toEqual({ city: 'string' })
  })

  test('Anthropic tool_choice any / tool calls the tool with a toolu_ id and valid input', async () => {
    const proxy = await startProxy()
    const client = anthropicFor(proxy)
    const tools: Anthropic.Tool[] = [
      { name: 'weather', input_schema: weatherSchema as Anthropic.Tool.InputSchema },
      { name: 'book', input_schema: bookingSchema as Anthropic.Tool.InputSchema },
    ]
    const any = await client.messages.create({ model: 'claude-test', max_tokens: 256, messages, tools, tool_choice: { type: 'any' } })
    expect(any.stop_reason).toBe('tool_use')
    expect(any.content[0]).toMatchObject({ type: 'tool_use', name: 'weather', input: { city: 'string' } })
    expect(any.content[0].type === 'tool_use' && any.content[0].id).toMatch(/^toolu_01[1-9A-HJ-NP-Za-km-z]{22}$/)

    const final = await client.messages.stream({ model: 'claude-test', max_tokens: 256, messages, tools, tool_choice: { type: 'tool', name: 'book' } }).finalMessage()
    const block = final.content[0]
    expect(block.type === 'tool_use' && block.name).toBe('book')
    expect(block.type === 'tool_use' && booking.safeParse(block.input).success).toBe(true)
  })

  test('a requested JSON schema is answered with a value that satisfies it', async () => {
    const proxy = await startProxy()
    const completion = await openaiFor(proxy).chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'booking', schema: bookingSchema } },
    })
    expect(booking.safeParse(JSON.parse(completion.choices[0].message.content ?? '')).success).toBe(true)
    const message = await anthropicFor(proxy).messages.create({
      model: 'claude-test',
      max_tokens: 256,
      messages,
      output_config: { format: { type: 'json_schema', schema: bookingSchema } },
    } as Anthropic.MessageCreateParamsNonStreaming)
    const text = message.content[0].type === 'text' ? message.content[0].text : ''
    expect(booking.safeParse(JSON.parse(text)).success).toBe(true)
  })
})

describe('structured output with no script', () => {
  test('LangChain ChatAnthropic withStructuredOutput(zod).invoke() returns a schema-valid object', async () => {
    const proxy = await startProxy()
    const model = new ChatAnthropic({ apiKey: 'k', anthropicApiUrl: proxy.url, model: 'claude-test', maxRetries: 0 })
    const result = await model.withStructuredOutput(booking).invoke('book a stay')
    expect(booking.parse(result)).toEqual(result)
    expect(proxy.requests[0].json).toMatchObject({ tool_choice: { type: 'tool' } })
  })

  test('LangChain ChatOpenAI withStructuredOutput (functionCalling and jsonSchema) returns schema-valid objects', async () => {
    const proxy = await startProxy()
    const model = new ChatOpenAI({ apiKey: 'k', configuration: { baseURL: `${proxy.url}/v1` }, model: 'gpt-4o-mini', maxRetries: 0 })
    const viaTools = await model.withStructuredOutput(booking, { method: 'functionCalling' }).invoke('book a stay')
    expect(booking.parse(viaTools)).toEqual(viaTools)
    const viaSchema = await model.withStructuredOutput(booking, { method: 'jsonSchema' }).invoke('book a stay')
    expect(booking.parse(viaSchema)).toEqual(viaSchema)
    expect(proxy.requests).toHaveLength(2)
  })

  test('AI SDK generateObject returns a schema-valid object on OpenAI and Anthropic', async () => {
    const proxy = await startProxy()
    const openai = createOpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1` })
    const anthropic = createAnthropic({ apiKey: 'k', baseURL: `${proxy.url}/v1` })
    for (const model of [openai('gpt-4o-mini'), openai.chat('gpt-4o-mini'), anthropic('my-fake-model')]) {
      const { object } = await generateObject({ model, schema: booking, prompt: 'book a stay', maxRetries: 0 })
      expect(booking.parse(object)).toEqual(object)
    }
  })
})

describe('schemas that cannot fit', () => {
  const nested = { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000, items: { type: 'integer' } } } }

  test('each wire answers its own 400 naming the schema path, recorded on the request', async () => {
    const proxy = await startProxy()
    const chat = openaiFor(proxy).chat.completions.create({ model: 'm', messages, response_format: { type: 'json_schema', json_schema: { name: 'grid', schema: { type: 'object', properties: { grid: nested }, required: ['grid'] } } } })
    await expect(chat).rejects.toBeInstanceOf(OpenAI.BadRequestError)
    await expect(chat).rejects.toThrow(/#\/properties\/grid(\/items)+/)
    const responses = openaiFor(proxy).responses.create({ model: 'm', input: 'x', stream: true, tools: [{ type: 'function', name: 'grid', parameters: nested, strict: false }], tool_choice: 'required' })
    await expect(responses).rejects.toBeInstanceOf(OpenAI.BadRequestError)
    const anthropic = anthropicFor(proxy).messages.create({ model: 'c', max_tokens: 8, messages, tools: [{ name: 'grid', input_schema: { type: 'object', properties: { rows: nested }, required: ['rows'] } }], tool_choice: { type: 'any' } })
    await expect(anthropic).rejects.toBeInstanceOf(Anthropic.BadRequestError)
    await expect(anthropic).rejects.toMatchObject({ type: 'invalid_request_error' })
    expect(proxy.requests.map((request) => request.status)).toEqual([400, 400, 400])
    expect(proxy.requests[2].error).toMatchObject({ type: 'invalid_request_error', param: expect.stringMatching(/^#\/properties\/rows/) })
  })
})
