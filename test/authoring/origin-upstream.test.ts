// transcript.upstream as an origin: the neutral request goes out in the origin's API and is read
// back by a second FakeProxy's own decoder into the same neutral request; the answer comes back
// into the neutral model, tool calls included.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { originLLM } from '../../src/upstream/origin-llm.js'
import { FakeProxy, scriptedLLM, toolCall, type ModelRequest } from '../../src/index.js'

const upstream = new FakeProxy({ llm: scriptedLLM((req) => (req.tools ? toolCall('lookup', { q: 'x' }, 'call_1') : 'plain answer')) })
beforeAll(() => upstream.start())
afterAll(() => upstream.close())

const request: ModelRequest = {
  model: 'model-1',
  system: 'Be brief.',
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', url: 'https://example.com/cat.png' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool-call', id: 'call_0', name: 'lookup', args: { q: 'cat' } }] },
    { role: 'tool', content: [{ type: 'tool-result', id: 'call_0', name: 'lookup', result: { animal: 'cat' } }] },
    { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
  ],
  tools: [{ name: 'lookup', description: 'Looks things up', parameters: { type: 'object', properties: { q: { type: 'string' } } } }],
  toolChoice: { type: 'tool', name: 'lookup' },
  maxTokens: 300,
  temperature: 0.2,
  stream: false,
}

test.each(['openai', 'anthropic'] as const)('%s: the origin reads the same request, and its tool call comes back', async (api) => {
  upstream.reset()
  const answer = await originLLM(upstream.url, api).generate(request)
  expect(answer).toMatchObject({ content: [{ type: 'tool-call', name: 'lookup', args: { q: 'x' } }], finishReason: 'tool-calls' })
  const [seen] = upstream.requests
  expect(seen.dialect).toBe(api === 'openai' ? 'openai-chat' : 'anthropic-messages')
  expect(seen.request).toMatchObject({
    model: 'model-1',
    system: 'Be brief.',
    tools: [{ name: 'lookup', description: 'Looks things up', parameters: request.tools?.[0].parameters }],
    toolChoice: { type: 'tool', name: 'lookup' },
    maxTokens: 300,
    temperature: 0.2,
  })
  expect(seen.request?.messages).toEqual([
    { role: 'user', content: [{ type: 'text', text: 'What is this?' }, expect.objectContaining({ type: 'image', url: 'https://example.com/cat.png' })] },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool-call', id: 'call_0', name: 'lookup', args: { q: 'cat' } }] },
    expect.objectContaining({ content: [expect.objectContaining({ type: 'tool-result', id: 'call_0', result: expect.stringContaining('"animal":"cat"') })] }),
    { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
  ])
})

test('openai: a JSON response format is asked for, and a streamed call gets the answer as events', async () => {
  upstream.reset()
  const events = []
  for await (const event of originLLM(upstream.url).stream({ model: 'model-1', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], responseFormat: { type: 'json', schema: { type: 'object' }, name: 'answer' }, stream: true })) events.push(event)
  expect(upstream.requests[0].request?.responseFormat).toEqual({ type: 'json', schema: { type: 'object' }, name: 'answer' })
  expect(upstream.requests[0].request?.stream).toBe(false)
  expect(events.at(-1)).toMatchObject({ type: 'finish', response: { content: [{ type: 'text', text: 'plain answer' }] } })
  expect(events.filter((event) => event.type === 'text-delta').map((event) => (event as { text: string }).text).join('')).toBe('plain answer')
})

test('an origin that answers something else than a model turn says so', async () => {
  await expect(originLLM(`${upstream.url}/nowhere`).generate(request)).rejects.toThrow(`[agent-doubles] transcript upstream ${upstream.url}/nowhere/v1/chat/completions answered 404`)
})
