/**
 * SPEC §10.3 on Responses, through the real `openai` client: each rule gets OpenAI's 400, and
 * a conversation continued by id resolves only on the proxy that answered it (SPEC §11).
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FakeProxy } from '../../../src/server/fake-proxy.js'
import { listLLM, openaiFor, startProxy, toolCall, text } from '../helpers.js'
import '../../matchers/setup-expect.js'

const fn = (name: string) => ({ type: 'function', name, parameters: { type: 'object', properties: {} }, strict: false })

const rules: { rule: string; body: Record<string, unknown>; param: string | null; code: string | null; message: string }[] = [
  { rule: 'model missing', body: { input: 'hi' }, param: 'model', code: 'missing_required_parameter', message: "Missing required parameter: 'model'." },
  { rule: 'input missing', body: { model: 'm' }, param: 'input', code: 'missing_required_parameter', message: "Missing required parameter: 'input'." },
  { rule: 'input empty', body: { model: 'm', input: [] }, param: 'input', code: 'empty_array', message: "Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead." },
  {
    rule: 'an unknown role',
    body: { model: 'm', input: [{ role: 'wizard', content: 'hi' }] },
    param: 'input[0].role',
    code: 'invalid_value',
    message: "Invalid value: 'wizard'. Supported values are: 'assistant', 'system', 'developer', and 'user'.",
  },
  {
    rule: 'content of the wrong type',
    body: { model: 'm', input: [{ role: 'user', content: 42 }] },
    param: 'input[0].content',
    code: 'invalid_type',
    message: "Invalid type for 'input[0].content': expected one of a string or array of objects, but got an integer instead.",
  },
  {
    rule: 'a function call output answering no call',
    body: { model: 'm', input: [{ role: 'user', content: 'hi' }, { type: 'function_call_output', call_id: 'call_9', output: 'x' }] },
    param: 'input',
    code: null,
    message: 'No tool call found for function call output with call_id call_9.',
  },
  {
    rule: 'a function call without arguments',
    body: { model: 'm', input: [{ type: 'function_call', call_id: 'call_1', name: 'lookup' }] },
    param: 'input[0].arguments',
    code: 'missing_required_parameter',
    message: "Missing required parameter: 'input[0].arguments'.",
  },
  {
    rule: 'a tool name outside the pattern',
    body: { model: 'm', input: 'hi', tools: [fn('get weather')] },
    param: 'tools[0].name',
    code: 'invalid_value',
    message: "Invalid 'tools[0].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
  },
  {
    rule: 'duplicate tool names',
    body: { model: 'm', input: 'hi', tools: [fn('lookup'), fn('lookup')] },
    param: 'tools[1].name',
    code: 'invalid_value',
    message: "Invalid 'tools[1].name': duplicate tool name 'lookup'. Tool names must be unique within a request.",
  },
  {
    rule: 'temperature below 0',
    body: { model: 'm', input: 'hi', temperature: -1 },
    param: 'temperature',
    code: 'decimal_below_min_value',
    message: "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -1 instead.",
  },
  {
    rule: 'max_output_tokens below 16',
    body: { model: 'm', input: 'hi', max_output_tokens: 10 },
    param: 'max_output_tokens',
    code: 'integer_below_min_value',
    message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 10 instead.",
  },
  {
    rule: 'stream not a boolean',
    body: { model: 'm', input: 'hi', stream: 1 },
    param: 'stream',
    code: 'invalid_type',
    message: "Invalid type for 'stream': expected a boolean, but got an integer instead.",
  },
  {
    rule: 'a json_schema format without name',
    body: { model: 'm', input: 'hi', text: { format: { type: 'json_schema', schema: { type: 'object' } } } },
    param: 'text.format.name',
    code: 'missing_required_parameter',
    message: "Missing required parameter: 'text.format.name'.",
  },
  {
    rule: 'a json_schema format without schema',
    body: { model: 'm', input: 'hi', text: { format: { type: 'json_schema', name: 'answer' } } },
    param: 'text.format.schema',
    code: 'missing_required_parameter',
    message: "Missing required parameter: 'text.format.schema'.",
  },
  {
    rule: 'an unknown previous_response_id',
    body: { model: 'm', input: 'hi', previous_response_id: 'resp_nope' },
    param: 'previous_response_id',
    code: 'previous_response_not_found',
    message: "Previous response with id 'resp_nope' not found.",
  },
]

describe('Responses validation through the openai client', () => {
  let proxy: FakeProxy
  beforeAll(async () => {
    proxy = await new FakeProxy().start()
  })
  afterAll(() => proxy.close())

  test.each(rules)('$rule → 400 $code', async ({ body, param, code, message }) => {
    const error = await openaiFor(proxy)
      .responses.create(body as never)
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toEqual({ message, type: 'invalid_request_error', param, code })
    expect(proxy.requests.at(-1)).toMatchObject({ status: 400, error: { param, code, message } })
  })
})

describe('remembered conversations belong to one proxy', () => {
  test('a function call output answering a call of the previous response is valid', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('lookup', { q: 1 }, 'call_7'), text('done')) })
    const client = openaiFor(proxy)
    const first = await client.responses.create({ model: 'm', input: 'look it up', tools: [fn('lookup') as never] })
    const second = await client.responses.create({
      model: 'm',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: 'call_7', output: '42' }],
    })
    expect(second.output_text).toBe('done')
    expect(proxy).toHaveSentValidRequests()
    expect(proxy.requests[1].request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
  })

  test('a second proxy does not resolve the first one’s ids; reset() and close() forget them', async () => {
    const first = await startProxy()
    const second = await startProxy()
    const answer = await openaiFor(first).responses.create({ model: 'm', input: 'hi' })
    const elsewhere = await openaiFor(second).responses.create({ model: 'm', input: 'again', previous_response_id: answer.id }).catch((e: unknown) => e)
    expect(elsewhere).toMatchObject({ status: 400, code: 'previous_response_not_found' })
    // Same proxy: it resolves, until reset() forgets it.
    await openaiFor(first).responses.create({ model: 'm', input: 'again', previous_response_id: answer.id })
    first.reset()
    const afterReset = await openaiFor(first).responses.create({ model: 'm', input: 'again', previous_response_id: answer.id }).catch((e: unknown) => e)
    expect(afterReset).toMatchObject({ status: 400, code: 'previous_response_not_found' })
    const kept = await openaiFor(first).responses.create({ model: 'm', input: 'hi' })
    await first.close()
    await first.start()
    const afterClose = await openaiFor(first).responses.create({ model: 'm', input: 'again', previous_response_id: kept.id }).catch((e: unknown) => e)
    expect(afterClose).toMatchObject({ status: 400, code: 'previous_response_not_found' })
  })
})
