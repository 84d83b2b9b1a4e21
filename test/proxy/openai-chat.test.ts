import { describe, expect, test } from 'vitest'
import { CANNED_REPLY } from '../../src/server/default-brain.js'
import { listLLM, openaiFor, startProxy, text, toolCall } from './helpers.js'

describe('OpenAI Chat Completions through the openai client', () => {
  test('chat.completions.create answers with the canned reply and records the request', async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ],
    })
    expect(completion.choices[0].message.content).toBe(CANNED_REPLY)
    expect(completion.choices[0].finish_reason).toBe('stop')
    expect(completion._request_id).toMatch(/^req_/)
    const [request] = proxy.requests
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      dialect: 'openai-chat',
      model: 'gpt-4o-mini',
      stream: false,
      request: { system: 'be brief', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    })
    expect(request.headers.authorization).toBe('Bearer test-key')
    expect(request.body).toBeInstanceOf(Uint8Array)
    expect((request.json as { model: string }).model).toBe('gpt-4o-mini')
    expect(request.response?.content).toEqual([{ type: 'text', text: CANNED_REPLY }])
  })

  test('a raw stream with include_usage ends with a usage chunk', async () => {
    const proxy = await startProxy({ llm: listLLM(text('Hello from fake', { inputTokens: 10, outputTokens: 5 })) })
    const stream = await openaiFor(proxy).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    })
    let content = ''
    let finish: string | null = null
    let usage: unknown
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
      if (chunk.usage) usage = chunk.usage
    }
    expect(content).toBe('Hello from fake')
    expect(finish).toBe('stop')
    expect(usage).toMatchObject({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 })
    expect(proxy.requests[0].stream).toBe(true)
    expect(proxy.requests[0].response?.usage).toEqual({ inputTokens: 10, outputTokens: 5 })
  })

  test('the .stream() helper accumulates a tool call whose arguments arrive in several deltas', async () => {
    const llm = listLLM(toolCall('get_weather', { city: 'Paris' }, 'call_42'))
    const proxy = await startProxy({ llm })
    const deltas: string[] = []
    const stream = openaiFor(proxy).chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    })
    stream.on('tool_calls.function.arguments.delta', (event) => deltas.push(event.arguments_delta))
    const final = await stream.finalChatCompletion()
    const call = final.choices[0].message.tool_calls?.[0]
    expect(call).toMatchObject({ id: 'call_42', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } })
    expect(final.choices[0].finish_reason).toBe('tool_calls')
    expect(deltas.filter((d) => d !== '').length).toBeGreaterThanOrEqual(2)
    expect(llm.seen[0].tools).toEqual([
      { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
    ])
  })

  test('tool results, tool calls and images decode into the neutral model', async () => {
    const llm = listLLM(text('sunny'))
    const proxy = await startProxy({ llm })
    await openaiFor(proxy).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'developer', content: 'sys' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'look', arguments: '{"q":1}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"seen":"cat"}' },
      ],
      tool_choice: { type: 'function', function: { name: 'look' } },
      response_format: { type: 'json_object' },
      max_completion_tokens: 50,
      temperature: 0.5,
    })
    expect(llm.seen[0]).toEqual({
      model: 'gpt-4o-mini',
      system: 'sys',
      stream: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', mediaType: 'image/png', data: 'AAAA' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'look', args: { q: 1 } }] },
        { role: 'tool', content: [{ type: 'tool-result', id: 'call_1', name: 'look', result: '{"seen":"cat"}' }] },
      ],
      toolChoice: { type: 'tool', name: 'look' },
      responseFormat: { type: 'json' },
      maxTokens: 50,
      temperature: 0.5,
    })
  })

  test('json_schema structured output: the default brain answers JSON the parse() helper accepts', async () => {
    const proxy = await startProxy()
    const completion = await openaiFor(proxy).chat.completions.parse({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'answer' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'answer',
          strict: true,
          schema: { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false },
        },
      },
    })
    expect(completion.choices[0].message.parsed).toEqual({ answer: 0 })
    expect(proxy.requests[0].request.responseFormat).toMatchObject({ type: 'json', name: 'answer' })
  })

  test('both /v1/chat/completions and /chat/completions are served', async () => {
    const proxy = await startProxy()
    const client = new (await import('openai')).default({ apiKey: 'k', baseURL: proxy.url, maxRetries: 0 })
    const completion = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })
    expect(completion.choices[0].message.content).toBe(CANNED_REPLY)
    expect(proxy.requests[0].path).toBe('/chat/completions')
  })
})
