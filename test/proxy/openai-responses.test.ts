import { describe, expect, test } from 'vitest'
import { CANNED_REPLY } from '../../src/server/default-brain.js'
import { listLLM, openaiFor, postJson, startProxy, text, toolCall } from './helpers.js'
import type { ModelResponse } from '../../src/llm/types.js'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'

describe('OpenAI Responses through the openai client', () => {
  test('responses.create gives output_text and records instructions as the system prompt', async () => {
    const proxy = await startProxy()
    const response = await openaiFor(proxy).responses.create({ model: 'gpt-4o-mini', instructions: 'be brief', input: 'hi' })
    expect(response.output_text).toBe(CANNED_REPLY)
    expect(response.status).toBe('completed')
    expect(response.usage?.total_tokens).toBeGreaterThan(0)
    expect(proxy.requests[0]).toMatchObject({
      path: '/v1/responses',
      dialect: 'openai-responses',
      request: { system: 'be brief', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    })
  })

  test('responses.stream() delivers text deltas and a final response', async () => {
    const proxy = await startProxy({ llm: listLLM(text('Hello from fake')) })
    const deltas: string[] = []
    const stream = openaiFor(proxy).responses.stream({ model: 'gpt-4o-mini', input: 'hi' })
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta))
    const final = await stream.finalResponse()
    expect(final.output_text).toBe('Hello from fake')
    expect(deltas.join('')).toBe('Hello from fake')
    expect(final.usage).toMatchObject({ input_tokens: 7, output_tokens: 3 })
  })

  test('an empty reply is the same one empty message streamed or not', async () => {
    const proxy = await startProxy({ llm: new ScriptedLLM(() => '') })
    const json = await openaiFor(proxy).responses.create({ model: 'm', input: 'say nothing' })
    const streamed = await openaiFor(proxy).responses.stream({ model: 'm', input: 'say nothing' }).finalResponse()
    for (const response of [json, streamed]) {
      expect(response.output).toEqual([expect.objectContaining({ type: 'message', content: [expect.objectContaining({ type: 'output_text', text: '' })] })])
    }
  })

  test('previous_response_id continues the conversation the proxy answered, streamed or not', async () => {
    for (const stream of [false, true]) {
      const llm = new ScriptedLLM([{ toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' }, id: 'call_7' }] }, 'Cold.'])
      const proxy = await startProxy({ llm })
      const client = openaiFor(proxy)
      const tools = [{ type: 'function' as const, name: 'get_weather', parameters: { type: 'object' }, strict: false }]
      const first = stream
        ? await client.responses.stream({ model: 'm', instructions: 'Be brief.', input: 'Weather in Oslo?', tools }).finalResponse()
        : await client.responses.create({ model: 'm', instructions: 'Be brief.', input: 'Weather in Oslo?', tools })
      const call = first.output.find((item) => item.type === 'function_call')
      const second = await client.responses.create({
        model: 'm',
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call?.type === 'function_call' ? call.call_id : '', output: '-3°C' }],
        tools,
      })
      expect(second.output_text).toBe('Cold.')
      expect(llm.requests[1].messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'call_7', name: 'get_weather', args: { city: 'Oslo' } }] },
        { role: 'tool', content: [{ type: 'tool-result', id: 'call_7', name: 'get_weather', result: '-3°C' }] },
      ])
      expect(llm.requests[1].system).toBeUndefined()
    }
  })

  test('responses.stream() delivers a function call with its arguments in several deltas', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('get_weather', { city: 'Paris' }, 'call_7')) })
    const deltas: string[] = []
    const stream = openaiFor(proxy).responses.stream({
      model: 'gpt-4o-mini',
      input: 'weather?',
      tools: [{ type: 'function', name: 'get_weather', strict: true, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } }],
    })
    stream.on('response.function_call_arguments.delta', (event) => deltas.push(event.delta))
    const final = await stream.finalResponse()
    const call = final.output.find((item) => item.type === 'function_call')
    expect(call).toMatchObject({ type: 'function_call', call_id: 'call_7', name: 'get_weather', arguments: '{"city":"Paris"}' })
    expect(deltas.length).toBeGreaterThanOrEqual(2)
    expect(deltas.join('')).toBe('{"city":"Paris"}')
  })

  test('reasoning and text stream in separate items the accumulator accepts', async () => {
    const answer: ModelResponse = {
      content: [
        { type: 'reasoning', text: 'thinking hard' },
        { type: 'text', text: 'done' },
      ],
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 1 },
    }
    const proxy = await startProxy({ llm: listLLM(answer) })
    const final = await openaiFor(proxy).responses.stream({ model: 'o4-mini', input: 'x' }).finalResponse()
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message'])
    expect(final.output_text).toBe('done')
  })

  test('input items decode: function calls, outputs, item references, images and text.format', async () => {
    const llm = listLLM(text('ok'))
    const proxy = await startProxy({ llm })
    const result = await postJson(`${proxy.url}/responses`, {
      model: 'gpt-4o-mini',
      input: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: 'https://x.test/cat.png' }] },
        { type: 'item_reference', id: 'msg_old' },
        { type: 'function_call', call_id: 'call_1', name: 'look', arguments: '{"q":1}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"seen":"cat"}' },
      ],
      text: { format: { type: 'json_schema', name: 'out', strict: true, schema: { type: 'object' } } },
      max_output_tokens: 20,
    })
    expect(result.status).toBe(200)
    expect(result.body).toMatchObject({ object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }] })
    expect(llm.seen[0]).toEqual({
      model: 'gpt-4o-mini',
      system: 'sys',
      stream: false,
      maxTokens: 20,
      responseFormat: { type: 'json', name: 'out', schema: { type: 'object' } },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', url: 'https://x.test/cat.png' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'look', args: { q: 1 } }] },
        { role: 'tool', content: [{ type: 'tool-result', id: 'call_1', name: 'look', result: '{"seen":"cat"}' }] },
      ],
    })
  })

  test('sequence numbers are contiguous and response.created comes first', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('f', { a: 1 }, 'c1', 'calling')) })
    const events: { type: string; sequence_number: number }[] = []
    const stream = await openaiFor(proxy).responses.create({ model: 'm', input: 'x', stream: true })
    for await (const event of stream) events.push(event)
    expect(events[0].type).toBe('response.created')
    expect(events.at(-1)?.type).toBe('response.completed')
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i))
  })
})
