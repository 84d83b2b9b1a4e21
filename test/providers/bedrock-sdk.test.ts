/**
 * Amazon Bedrock through `@aws-sdk/client-bedrock-runtime`, unchanged (its default HTTP/2
 * handler, fake credentials: SigV4 is accepted, not verified), against the FakeProxy: Converse
 * and ConverseStream (text, tool loop, structured output through a forced tool, usage), InvokeModel
 * and InvokeModelWithResponseStream for Anthropic models, errors with the SDK's classes and retries.
 */
import {
  AccessDeniedException,
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  ThrottlingException,
  ValidationException,
  type Message,
} from '@aws-sdk/client-bedrock-runtime'
import { describe, expect, onTestFinished, test } from 'vitest'
import { scriptedLLM, toolCall } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

function bedrockFor(proxy: FakeProxy, maxAttempts = 1): BedrockRuntimeClient {
  const client = new BedrockRuntimeClient({
    endpoint: proxy.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    maxAttempts,
  })
  onTestFinished(() => client.destroy())
  return client
}

const modelId = 'amazon.nova-lite-v1:0'
const weatherTool = { toolSpec: { name: 'get_weather', description: 'weather by city', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } } }

describe('Bedrock through @aws-sdk/client-bedrock-runtime', () => {
  test('Converse answers text with usage over HTTP/2, the request recorded in the neutral model', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hello from Bedrock'], { usage: { inputTokens: 9, outputTokens: 3 } }) })
    const answer = await bedrockFor(proxy).send(
      new ConverseCommand({
        modelId,
        system: [{ text: 'Be brief.' }],
        messages: [{ role: 'user', content: [{ text: 'hi' }] }],
        inferenceConfig: { maxTokens: 64, temperature: 0.5 },
      }),
    )
    expect(answer.output?.message?.content).toEqual([{ text: 'Hello from Bedrock' }])
    expect(answer.stopReason).toBe('end_turn')
    expect(answer.usage).toEqual({ inputTokens: 9, outputTokens: 3, totalTokens: 12 })
    expect(proxy.requests[0]).toMatchObject({
      path: `/model/${encodeURIComponent(modelId)}/converse`,
      dialect: 'bedrock-converse',
      model: modelId,
      request: { system: 'Be brief.', maxTokens: 64, temperature: 0.5, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
    })
    expect(proxy.requests[0].headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//)
    // The default handler spoke HTTP/2 (its pseudo-headers are on the record).
    expect(proxy.requests[0].headers[':method']).toBe('POST')
  })

  test('ConverseStream streams text deltas and ends with messageStop and metadata', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three'], { usage: { inputTokens: 4, outputTokens: 3 } }) })
    const answer = await bedrockFor(proxy).send(new ConverseStreamCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'count' }] }] }))
    const events = []
    for await (const event of answer.stream!) events.push(event)
    const text = events.flatMap((event) => (event.contentBlockDelta?.delta?.text ? [event.contentBlockDelta.delta.text] : []))
    expect(text.join('')).toBe('one two three')
    expect(text.length).toBeGreaterThan(1)
    expect(events[0].messageStart).toEqual({ role: 'assistant' })
    expect(events.at(-2)?.messageStop).toEqual({ stopReason: 'end_turn' })
    expect(events.at(-1)?.metadata?.usage).toEqual({ inputTokens: 4, outputTokens: 3, totalTokens: 7 })
  })

  test('a tool loop: toolUse streamed in pieces, the toolResult reaches the script', async () => {
    const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }, 'tooluse_1'), 'Sunny in Paris.'])
    const proxy = await startProxy({ llm })
    const client = bedrockFor(proxy)
    const messages: Message[] = [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }]
    const stream = await client.send(new ConverseStreamCommand({ modelId, messages, toolConfig: { tools: [weatherTool] } }))
    let input = ''
    let pieces = 0
    let start
    for await (const event of stream.stream!) {
      if (event.contentBlockStart) start = event.contentBlockStart.start?.toolUse
      if (event.contentBlockDelta?.delta?.toolUse) {
        input += event.contentBlockDelta.delta.toolUse.input
        pieces++
      }
    }
    expect(start).toEqual({ toolUseId: 'tooluse_1', name: 'get_weather' })
    expect(pieces).toBeGreaterThan(1)
    expect(JSON.parse(input)).toEqual({ city: 'Paris' })
    messages.push(
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Paris' } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ json: { temp: 21 } }] } }] },
    )
    const second = await client.send(new ConverseCommand({ modelId, messages, toolConfig: { tools: [weatherTool] } }))
    expect(second.output?.message?.content?.[0].text).toBe('Sunny in Paris.')
    expect(llm.requests[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', id: 'tooluse_1', name: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', id: 'tooluse_1', name: 'get_weather', result: { temp: 21 } }] },
    ])
  })

  test('structured output through a forced json tool is answered with that tool’s call', async () => {
    const proxy = await startProxy()
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
    const answer = await bedrockFor(proxy).send(
      new ConverseCommand({
        modelId,
        messages: [{ role: 'user', content: [{ text: 'a city' }] }],
        toolConfig: { tools: [{ toolSpec: { name: 'json', inputSchema: { json: schema } } }], toolChoice: { any: {} } },
      }),
    )
    expect(answer.stopReason).toBe('tool_use')
    expect(answer.output?.message?.content?.[0].toolUse).toMatchObject({ name: 'json', input: { city: expect.any(String) } })
    expect(proxy.requests[0].request.responseFormat).toEqual({ type: 'json', schema })
  })

  test('InvokeModel and InvokeModelWithResponseStream speak Anthropic Messages inside', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hi from Claude', 'Streamed Claude']) })
    const client = bedrockFor(proxy)
    const body = { anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }
    const invoked = await client.send(new InvokeModelCommand({ modelId: 'anthropic.claude-sonnet-4-6', contentType: 'application/json', body: JSON.stringify(body) }))
    const message = JSON.parse(new TextDecoder().decode(invoked.body))
    expect(message).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi from Claude' }], stop_reason: 'end_turn' })
    const streamed = await client.send(new InvokeModelWithResponseStreamCommand({ modelId: 'anthropic.claude-sonnet-4-6', contentType: 'application/json', body: JSON.stringify(body) }))
    const events = []
    for await (const part of streamed.body!) if (part.chunk?.bytes) events.push(JSON.parse(new TextDecoder().decode(part.chunk.bytes)))
    expect(events[0].type).toBe('message_start')
    expect(events.at(-1).type).toBe('message_stop')
    expect(events.flatMap((event) => (event.delta?.type === 'text_delta' ? [event.delta.text] : [])).join('')).toBe('Streamed Claude')
    expect(proxy.requests.map((request) => [request.dialect, request.stream])).toEqual([['bedrock-invoke', false], ['bedrock-invoke', true]])
  })

  test('embeddings through InvokeModel: Titan’s and Cohere’s bodies, deterministic or scripted vectors', async () => {
    const proxy = await startProxy()
    const client = bedrockFor(proxy)
    const invoke = async (modelId: string, body: unknown) =>
      JSON.parse(new TextDecoder().decode((await client.send(new InvokeModelCommand({ modelId, contentType: 'application/json', body: JSON.stringify(body) }))).body))
    const titan = await invoke('amazon.titan-embed-text-v2:0', { inputText: 'cat', dimensions: 8 })
    expect(titan.embedding).toHaveLength(8)
    expect(titan.inputTextTokenCount).toBeGreaterThan(0)
    const cohere = await invoke('cohere.embed-english-v3', { texts: ['cat', 'dog'], input_type: 'search_document', output_dimension: 8 })
    expect(cohere).toMatchObject({ response_type: 'embeddings_floats', texts: ['cat', 'dog'] })
    expect(cohere.embeddings[0]).toEqual(titan.embedding)
    proxy.use(scriptedLLM([], { embed: (text) => [text.length] }))
    expect((await invoke('amazon.titan-embed-text-v2:0', { inputText: 'hello' })).embedding).toEqual([5])
    expect(proxy.requests.map((request) => request.dialect)).toEqual(['bedrock-embed', 'bedrock-embed', 'bedrock-embed'])
  })

  test('a planned malformed frame breaks the stream with the SDK’s own checksum error', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three']) })
    proxy.fail({ kind: 'malformed', afterChunks: 2 })
    const answer = await bedrockFor(proxy).send(new ConverseStreamCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'count' }] }] }))
    const seen: string[] = []
    const reading = (async () => {
      for await (const event of answer.stream!) seen.push(Object.keys(event)[0])
    })()
    await expect(reading).rejects.toThrow(/checksum/i)
    expect(seen).toEqual(['messageStart', 'contentBlockDelta'])
  })

  test('a throttled request is a ThrottlingException, retried by the SDK up to maxAttempts', async () => {
    const proxy = await startProxy()
    proxy.refuse('rate_limited', { times: 1 })
    const answer = await bedrockFor(proxy, 2).send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'hi' }] }] }))
    expect(answer.$metadata.attempts).toBe(2)
    expect(proxy.refusals.map((refusal) => refusal.status)).toEqual([429])
    proxy.refuse('rate_limited', { times: 1, message: 'slow down' })
    const error = await bedrockFor(proxy, 1).send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'hi' }] }] })).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ThrottlingException)
    expect((error as ThrottlingException).message).toBe('slow down')
    expect((error as ThrottlingException).$metadata.httpStatusCode).toBe(429)
  })

  test('a denied request is an AccessDeniedException, not retried; bad input a ValidationException', async () => {
    const proxy = await startProxy({ agents: ['researcher'] })
    proxy.refuse('policy_denied', { times: 2 })
    const denied = await bedrockFor(proxy, 3).send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'hi' }] }] })).catch((caught: unknown) => caught)
    expect(denied).toBeInstanceOf(AccessDeniedException)
    expect((denied as AccessDeniedException).$metadata.attempts).toBe(1)
    const invalid = await bedrockFor(proxy)
      .send(new ConverseCommand({ modelId, messages: [{ role: 'user', content: [{ text: 'hi' }] }], inferenceConfig: { temperature: 3 } }))
      .catch((caught: unknown) => caught)
    expect(invalid).toBeInstanceOf(ValidationException)
    expect((invalid as ValidationException).message).toMatch(/inferenceConfig.temperature/)
  })
})
