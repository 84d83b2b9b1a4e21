/**
 * SPEC §10.3 on Chat Completions: each rule rejects through the real `openai` client with
 * OpenAI's own 400 (status, error class, type, code, param, message), and the rejection is
 * recorded.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FakeProxy } from '../../../src/server/fake-proxy.js'
import { openaiFor } from '../helpers.js'

const user = { role: 'user', content: 'hi' }
const call = { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }
const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } })

interface Rule {
  rule: string
  body: Record<string, unknown>
  param: string | null
  code: string | null
  message: string
}

const rules: Rule[] = [
  { rule: 'model missing', body: { messages: [user] }, param: null, code: null, message: 'you must provide a model parameter' },
  { rule: 'model not a string', body: { model: 7, messages: [user] }, param: 'model', code: 'invalid_type', message: "Invalid type for 'model': expected a string, but got an integer instead." },
  { rule: 'messages missing', body: { model: 'm' }, param: 'messages', code: 'missing_required_parameter', message: "Missing required parameter: 'messages'." },
  { rule: 'messages empty', body: { model: 'm', messages: [] }, param: 'messages', code: 'empty_array', message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead." },
  {
    rule: 'an unknown role',
    body: { model: 'm', messages: [{ role: 'wizard', content: 'hi' }] },
    param: 'messages[0].role',
    code: 'invalid_value',
    message: "Invalid value: 'wizard'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
  },
  {
    rule: 'content of the wrong type',
    body: { model: 'm', messages: [{ role: 'user', content: 42 }] },
    param: 'messages[0].content',
    code: 'invalid_type',
    message: "Invalid type for 'messages[0].content': expected one of a string or array of objects, but got an integer instead.",
  },
  {
    rule: 'a content part of an unknown type',
    body: { model: 'm', messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] },
    param: 'messages[0].content[0].type',
    code: 'invalid_value',
    message: "Invalid value: 'video'. Supported values are: 'text', 'image_url', 'input_audio', and 'file'.",
  },
  {
    rule: 'a tool result with no tool call before it',
    body: { model: 'm', messages: [user, { role: 'tool', tool_call_id: 'call_1', content: 'sunny' }] },
    param: 'messages.[1].role',
    code: null,
    message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
  },
  {
    rule: 'a tool result answering another call',
    body: { model: 'm', messages: [user, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_9', content: 'x' }] },
    param: 'messages.[2].tool_call_id',
    code: null,
    message: "Invalid parameter: 'tool_call_id' of 'call_9' not found in 'tool_calls' of previous message.",
  },
  {
    rule: 'a tool call id that is an object',
    body: { model: 'm', messages: [user, { role: 'assistant', content: null, tool_calls: [{ ...call, id: { toString: 1 } }] }] },
    param: 'messages[1].tool_calls[0].id',
    code: 'invalid_type',
    message: "Invalid type for 'messages[1].tool_calls[0].id': expected a string, but got an object instead.",
  },
  {
    rule: 'a tool name outside the pattern',
    body: { model: 'm', messages: [user], tools: [tool('get weather')] },
    param: 'tools[0].function.name',
    code: 'invalid_value',
    message: "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
  },
  {
    rule: 'a tool name over 64 characters',
    body: { model: 'm', messages: [user], tools: [tool('t'.repeat(65))] },
    param: 'tools[0].function.name',
    code: 'string_above_max_length',
    message: "Invalid 'tools[0].function.name': string too long. Expected a string with maximum length 64, but got a string with length 65 instead.",
  },
  {
    rule: 'duplicate tool names',
    body: { model: 'm', messages: [user], tools: [tool('lookup'), tool('lookup')] },
    param: 'tools[1].function.name',
    code: 'invalid_value',
    message: "Invalid 'tools[1].function.name': duplicate tool name 'lookup'. Tool names must be unique within a request.",
  },
  {
    rule: 'temperature above 2',
    body: { model: 'm', messages: [user], temperature: 3 },
    param: 'temperature',
    code: 'decimal_above_max_value',
    message: "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead.",
  },
  {
    rule: 'temperature not a number',
    body: { model: 'm', messages: [user], temperature: 'hot' },
    param: 'temperature',
    code: 'invalid_type',
    message: "Invalid type for 'temperature': expected a decimal, but got a string instead.",
  },
  {
    rule: 'a token limit of 0',
    body: { model: 'm', messages: [user], max_tokens: 0 },
    param: 'max_tokens',
    code: 'integer_below_min_value',
    message: "Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.",
  },
  {
    rule: 'a token limit that is not an integer',
    body: { model: 'm', messages: [user], max_completion_tokens: 1.5 },
    param: 'max_completion_tokens',
    code: 'invalid_type',
    message: "Invalid type for 'max_completion_tokens': expected an integer, but got a decimal instead.",
  },
  {
    rule: 'stream not a boolean',
    body: { model: 'm', messages: [user], stream: 'yes' },
    param: 'stream',
    code: 'invalid_type',
    message: "Invalid type for 'stream': expected a boolean, but got a string instead.",
  },
  {
    rule: 'a json_schema format without name',
    body: { model: 'm', messages: [user], response_format: { type: 'json_schema', json_schema: { schema: { type: 'object' } } } },
    param: 'response_format.json_schema.name',
    code: 'missing_required_parameter',
    message: "Missing required parameter: 'response_format.json_schema.name'.",
  },
  {
    rule: 'a json_schema format without schema',
    body: { model: 'm', messages: [user], response_format: { type: 'json_schema', json_schema: { name: 'answer' } } },
    param: 'response_format.json_schema.schema',
    code: 'missing_required_parameter',
    message: "Missing required parameter: 'response_format.json_schema.schema'.",
  },
]

describe('Chat Completions validation through the openai client', () => {
  let proxy: FakeProxy
  beforeAll(async () => {
    proxy = await new FakeProxy().start()
  })
  afterAll(() => proxy.close())

  test.each(rules)('$rule → 400 $code', async ({ body, param, code, message }) => {
    const error = await openaiFor(proxy)
      .chat.completions.create(body as never)
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param, code })
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toEqual({ message, type: 'invalid_request_error', param, code })
    expect(proxy.requests.at(-1)).toMatchObject({ status: 400, error: { type: 'invalid_request_error', param, code, message } })
  })
})

describe('validate: false', () => {
  test('lets through what validation would reject, recorded without an error', async () => {
    const proxy = await new FakeProxy({ validate: false }).start()
    try {
      const completion = await openaiFor(proxy).chat.completions.create({ model: 'm', messages: [user], temperature: 'hot' } as never)
      expect(completion.choices[0].message.content).toBeTruthy()
      expect(proxy.requests[0].status).toBeUndefined()
      expect(proxy.requests[0].error).toBeUndefined()
    } finally {
      await proxy.close()
    }
  })

  test('is a boolean option: anything else throws a TypeError naming it', () => {
    expect(() => new FakeProxy({ validate: 'no' as never })).toThrow(new TypeError('[agent-doubles] FakeProxy: option validate must be a boolean, got "no"'))
  })

  test('a malformed field still gets a 400, never a 500', async () => {
    const proxy = await new FakeProxy({ validate: false }).start()
    try {
      const body = { model: 'm', messages: [user, { role: 'assistant', content: null, tool_calls: [{ ...call, id: { toString: 1 } }] }] }
      const error = await openaiFor(proxy).chat.completions.create(body as never).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(OpenAI.BadRequestError)
      expect(error).toMatchObject({ status: 400, param: 'messages[1].tool_calls[0].id' })
    } finally {
      await proxy.close()
    }
  })
})
