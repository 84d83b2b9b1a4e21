import { describe, expect, test } from 'vitest'
import { CANNED_REPLY } from '../../src/server/default-brain.js'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'
import { anthropicFor, listLLM, postJson, startProxy, text, toolCall } from './helpers.js'

const weatherTool = {
  name: 'get_weather',
  description: 'weather by city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
}

describe('Anthropic Messages through @anthropic-ai/sdk', () => {
  test('messages.create answers and records the request with its system prompt', async () => {
    const proxy = await startProxy()
    const message = await anthropicFor(proxy).messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      system: [{ type: 'text', text: 'be kind' }],
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(message.content).toEqual([{ type: 'text', text: CANNED_REPLY }])
    expect(message.stop_reason).toBe('end_turn')
    expect(message._request_id).toMatch(/^req_/)
    expect(proxy.requests[0]).toMatchObject({
      path: '/v1/messages',
      dialect: 'anthropic-messages',
      model: 'claude-sonnet-4-6',
      request: { system: 'be kind', maxTokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    })
  })

  test('messages.stream().finalMessage() rebuilds text and usage', async () => {
    const proxy = await startProxy({ llm: listLLM(text('Hello from fake', { inputTokens: 12, outputTokens: 4 })) })
    const deltas: string[] = []
    const stream = anthropicFor(proxy).messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
    stream.on('text', (delta) => deltas.push(delta))
    const final = await stream.finalMessage()
    expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from fake' })])
    expect(deltas.join('')).toBe('Hello from fake')
    expect(deltas.length).toBeGreaterThan(1)
    expect(final.usage.output_tokens).toBe(4)
    expect(final.usage.input_tokens).toBe(12)
    expect(final.stop_reason).toBe('end_turn')
  })

  test('a raw stream reports the input tokens in message_start, as the JSON answer does', async () => {
    const proxy = await startProxy({ llm: new ScriptedLLM() })
    const body = { model: 'c', max_tokens: 16, system: 'Be brief.', messages: [{ role: 'user' as const, content: 'How many tokens is this?' }] }
    const json = await anthropicFor(proxy).messages.create(body)
    const events = []
    for await (const event of await anthropicFor(proxy).messages.create({ ...body, stream: true })) events.push(event)
    const start = events.find((event) => event.type === 'message_start')
    expect(json.usage.input_tokens).toBeGreaterThan(0)
    expect(start?.type === 'message_start' && start.message.usage.input_tokens).toBe(json.usage.input_tokens)
    // The stream's message_start is written as text: its usage must keep the JSON answer's fields.
    expect(start?.type === 'message_start' && Object.keys(start.message.usage)).toEqual(Object.keys(json.usage))
  })

  test('a raw stream\'s frames carry the model, the block and the counts, whatever the brain reported', async () => {
    // message_start, content_block_start and message_delta are written as text; a count that is
    // not an integer (a hand-made brain's; NaN is no JSON) goes through JSON.stringify as before.
    const odd = { ...text('ok'), usage: { inputTokens: 2.5, outputTokens: Number.NaN } }
    const proxy = await startProxy({ llm: listLLM(text('hi there'), odd) })
    const body = { model: 'claude-"quoted"', max_tokens: 16, messages: [{ role: 'user' as const, content: 'hello' }] }
    for (const expected of [{ input_tokens: 7, output_tokens: 3 }, { input_tokens: 2.5, output_tokens: null }]) {
      const events = []
      for await (const event of await anthropicFor(proxy).messages.create({ ...body, stream: true })) events.push(event)
      expect(events[0]).toMatchObject({ type: 'message_start', message: { model: 'claude-"quoted"', content: [], stop_reason: null, usage: { output_tokens: 0, service_tier: 'standard' } } })
      expect(events[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
      expect(events.at(-2)).toEqual({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { ...expected, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      })
    }
  })

  test('an empty reply is the same empty text block streamed or not', async () => {
    const proxy = await startProxy({ llm: new ScriptedLLM(() => '') })
    const body = { model: 'c', max_tokens: 8, messages: [{ role: 'user' as const, content: 'say nothing' }] }
    const json = await anthropicFor(proxy).messages.create(body)
    const streamed = await anthropicFor(proxy).messages.stream(body).finalMessage()
    expect(json.content).toEqual([expect.objectContaining({ type: 'text', text: '' })])
    expect(streamed.content).toEqual([expect.objectContaining({ type: 'text', text: '' })])
  })

  test('a tool_use turn, streamed with its input split into partial_json deltas', async () => {
    const proxy = await startProxy({ llm: listLLM(toolCall('get_weather', { city: 'Paris' }, 'toolu_01', 'Let me check.')) })
    const partials: string[] = []
    const stream = anthropicFor(proxy).messages.stream({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      tools: [weatherTool],
      messages: [{ role: 'user', content: 'weather?' }],
    })
    stream.on('inputJson', (partial) => partials.push(partial))
    const final = await stream.finalMessage()
    expect(final.stop_reason).toBe('tool_use')
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'Let me check.' })
    expect(final.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } })
    expect(partials.length).toBeGreaterThanOrEqual(2)
  })

  test('tool results and tool_use replay decode into the neutral model; the answer is JSON', async () => {
    const llm = listLLM(text('20 degrees'))
    const proxy = await startProxy({ llm })
    const message = await anthropicFor(proxy).messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      system: 'sys',
      tools: [weatherTool],
      tool_choice: { type: 'any' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '{"temp":20}' }] },
      ],
    })
    expect(message.content[0]).toMatchObject({ type: 'text', text: '20 degrees' })
    expect(llm.seen[0]).toMatchObject({
      system: 'sys',
      toolChoice: 'required',
      tools: [{ name: 'get_weather', description: 'weather by city', parameters: weatherTool.input_schema }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_01', name: 'get_weather', args: { city: 'Paris' } }] },
        { role: 'tool', content: [{ type: 'tool-result', id: 'toolu_01', name: 'get_weather', result: '{"temp":20}' }] },
      ],
    })
  })

  test('a forced json tool is answered with a tool_use named json holding the object', async () => {
    const proxy = await startProxy()
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
    const answer = await postJson(`${proxy.url}/v1/messages`, {
      model: 'my-fake-model',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'json please' }],
      tools: [{ name: 'json', description: 'Respond with a JSON object.', input_schema: schema }],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
    })
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', name: 'json', input: { ok: false } }] })
    expect(proxy.requests[0].request).toMatchObject({ responseFormat: { type: 'json', schema } })
    expect(proxy.requests[0].request.tools).toBeUndefined()
  })

  test('output_config json_schema is decoded as a JSON response format', async () => {
    const proxy = await startProxy()
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
    const answer = await postJson(`${proxy.url}/messages`, {
      model: 'claude-sonnet-4-6',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'json please' }],
      output_config: { format: { type: 'json_schema', schema } },
    })
    expect(answer.body).toMatchObject({ content: [{ type: 'text', text: '{"n":0}' }] })
    expect(proxy.requests[0].request.responseFormat).toEqual({ type: 'json', schema })
  })

  test('models.list answers in the Anthropic shape when anthropic-version is sent', async () => {
    const proxy = await startProxy()
    const ids: string[] = []
    for await (const model of anthropicFor(proxy).models.list()) ids.push(model.id)
    expect(ids).toContain('claude-sonnet-4-6')
    expect(await anthropicFor(proxy).models.retrieve('claude-x')).toMatchObject({ type: 'model', id: 'claude-x', display_name: 'claude-x' })
  })
})
