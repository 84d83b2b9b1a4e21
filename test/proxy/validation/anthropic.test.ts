/**
 * SPEC §10.3 on Anthropic Messages, through the real `@anthropic-ai/sdk` client: each rule gets
 * Anthropic's 400 (`{ type: 'error', error: { type: 'invalid_request_error', message }, request_id }`).
 */
import Anthropic from '@anthropic-ai/sdk'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FakeProxy } from '../../../src/server/fake-proxy.js'
import { anthropicFor } from '../helpers.js'

const user = { role: 'user', content: 'hi' }
const tool = (name: string) => ({ name, input_schema: { type: 'object', properties: {} } })
const use = { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }

const rules: { rule: string; body: Record<string, unknown>; message: string }[] = [
  { rule: 'model missing', body: { max_tokens: 10, messages: [user] }, message: 'model: Field required' },
  { rule: 'max_tokens missing', body: { model: 'c', messages: [user] }, message: 'max_tokens: Field required' },
  { rule: 'max_tokens not an integer', body: { model: 'c', max_tokens: 1.5, messages: [user] }, message: 'max_tokens: Input should be a valid integer' },
  { rule: 'max_tokens of 0', body: { model: 'c', max_tokens: 0, messages: [user] }, message: 'max_tokens: Input should be greater than or equal to 1' },
  { rule: 'messages missing', body: { model: 'c', max_tokens: 10 }, message: 'messages: Field required' },
  { rule: 'messages empty', body: { model: 'c', max_tokens: 10, messages: [] }, message: 'messages: at least one message is required' },
  { rule: 'an unknown role', body: { model: 'c', max_tokens: 10, messages: [{ role: 'wizard', content: 'hi' }] }, message: "messages.0.role: Input should be 'user' or 'assistant'" },
  { rule: 'content of the wrong type', body: { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 42 }] }, message: 'messages.0.content: Input should be a valid list' },
  { rule: 'a text block without text', body: { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text' }] }] }, message: 'messages.0.content.0.text: Field required' },
  {
    rule: 'a tool_result not right after its tool_use',
    body: { model: 'c', max_tokens: 10, messages: [user, { role: 'assistant', content: [use] }, user, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] }] },
    message:
      'messages.3.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
  },
  {
    rule: 'a tool_use id that is an object',
    body: { model: 'c', max_tokens: 10, messages: [user, { role: 'assistant', content: [{ ...use, id: { toString: 1 } }] }] },
    message: 'messages.1.content.0.id: Input should be a valid string',
  },
  { rule: 'a tool name outside the pattern', body: { model: 'c', max_tokens: 10, messages: [user], tools: [tool('get weather')] }, message: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'" },
  { rule: 'duplicate tool names', body: { model: 'c', max_tokens: 10, messages: [user], tools: [tool('lookup'), tool('lookup')] }, message: 'tools: Tool names must be unique.' },
  { rule: 'temperature above 1', body: { model: 'c', max_tokens: 10, messages: [user], temperature: 1.5 }, message: 'temperature: Input should be less than or equal to 1' },
  { rule: 'temperature not a number', body: { model: 'c', max_tokens: 10, messages: [user], temperature: 'hot' }, message: 'temperature: Input should be a valid number' },
  { rule: 'stream not a boolean', body: { model: 'c', max_tokens: 10, messages: [user], stream: 'yes' }, message: 'stream: Input should be a valid boolean' },
  {
    rule: 'a json_schema output format without schema',
    body: { model: 'c', max_tokens: 10, messages: [user], output_format: { type: 'json_schema' } },
    message: 'output_format.schema: Field required',
  },
]

describe('Anthropic validation through @anthropic-ai/sdk', () => {
  let proxy: FakeProxy
  beforeAll(async () => {
    proxy = await new FakeProxy().start()
  })
  afterAll(() => proxy.close())

  test.each(rules)('$rule → 400', async ({ body, message }) => {
    const error = await anthropicFor(proxy)
      .messages.create(body as never)
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Anthropic.BadRequestError)
    const apiError = error as InstanceType<typeof Anthropic.APIError>
    expect(apiError.status).toBe(400)
    expect(apiError.error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message }, request_id: apiError.requestID })
    expect(apiError.requestID).toMatch(/^req_/)
    expect(proxy.requests.at(-1)).toMatchObject({ status: 400, error: { type: 'invalid_request_error', message: expect.stringContaining(message.split(': ').at(-1) as string) } })
  })
})
