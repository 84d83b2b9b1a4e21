/**
 * Azure OpenAI through `openai`'s `AzureOpenAI`, unchanged, against the FakeProxy: deployment
 * paths with `api-version`, the `api-key` header, Chat (text, stream, tools, structured output,
 * usage), Responses, embeddings, the model list, errors and retries.
 */
import { AzureOpenAI, RateLimitError, PermissionDeniedError } from 'openai'
import { zodResponseFormat } from 'openai/helpers/zod'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { scriptedLLM, toolCall } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { postJson, raw, startProxy } from '../proxy/helpers.js'

const apiVersion = '2024-10-21'

function azureFor(proxy: FakeProxy, options: { deployment?: string; maxRetries?: number } = {}): AzureOpenAI {
  return new AzureOpenAI({ endpoint: proxy.url, apiKey: 'azure-key', apiVersion, deployment: options.deployment, maxRetries: options.maxRetries ?? 0 })
}

const weather = { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }

describe('Azure OpenAI through AzureOpenAI', () => {
  test('chat on a deployment path: api-version and api-key sent, the deployment names the model', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hello from Azure'], { usage: { inputTokens: 8, outputTokens: 3 } }) })
    const completion = await azureFor(proxy, { deployment: 'my-gpt' }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
    expect(completion.choices[0].message.content).toBe('Hello from Azure')
    expect(completion.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 3 })
    expect(proxy.requests[0]).toMatchObject({ path: '/openai/deployments/my-gpt/chat/completions', dialect: 'openai-chat', model: 'my-gpt', headers: { 'api-key': 'azure-key' } })
  })

  test('without a deployment option the model is the deployment, as AzureOpenAI builds the path', async () => {
    const proxy = await startProxy()
    await azureFor(proxy).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
    expect(proxy.requests[0]).toMatchObject({ path: '/openai/deployments/gpt-4o-mini/chat/completions', model: 'gpt-4o-mini' })
  })

  test('a streamed chat with a tool call whose arguments arrive in pieces', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Paris' }, 'call_1')]) })
    const stream = await azureFor(proxy).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather?' }], tools: [weather], stream: true })
    const fragments: string[] = []
    for await (const chunk of stream) for (const call of chunk.choices[0]?.delta.tool_calls ?? []) if (call.function?.arguments) fragments.push(call.function.arguments)
    expect(fragments.length).toBeGreaterThan(1)
    expect(JSON.parse(fragments.join(''))).toEqual({ city: 'Paris' })
  })

  test('a tool loop: the tool result reaches the script', async () => {
    const llm = scriptedLLM([toolCall('get_weather', { city: 'Oslo' }, 'call_9'), 'Cold in Oslo.'])
    const proxy = await startProxy({ llm })
    const azure = azureFor(proxy)
    const messages: Parameters<typeof azure.chat.completions.create>[0]['messages'] = [{ role: 'user', content: 'Weather in Oslo?' }]
    const first = await azure.chat.completions.create({ model: 'gpt-4o', messages, tools: [weather] })
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: 'call_9', content: '-3' })
    const second = await azure.chat.completions.create({ model: 'gpt-4o', messages, tools: [weather] })
    expect(second.choices[0].message.content).toBe('Cold in Oslo.')
    expect(llm.requests[1].messages.at(-1)).toEqual({ role: 'tool', content: [{ type: 'tool-result', id: 'call_9', name: 'get_weather', result: '-3' }] })
  })

  test('structured output with chat.completions.parse', async () => {
    const proxy = await startProxy()
    const parsed = await azureFor(proxy).chat.completions.parse({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'A city' }],
      response_format: zodResponseFormat(z.object({ city: z.string(), population: z.number() }), 'city'),
    })
    expect(parsed.choices[0].message.parsed).toEqual({ city: expect.any(String), population: expect.any(Number) })
  })

  test('the Responses API on /openai/responses?api-version', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['from responses']) })
    const response = await azureFor(proxy).responses.create({ model: 'my-deployment', input: 'hi' })
    expect(response.output_text).toBe('from responses')
    expect(proxy.requests[0]).toMatchObject({ path: '/openai/responses', dialect: 'openai-responses', model: 'my-deployment' })
  })

  test('embeddings on the deployment path, scripted by the embed option', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([], { embed: (text) => [text.length, 0.5] }) })
    const result = await azureFor(proxy).embeddings.create({ model: 'embedder', input: ['ab', 'abcd'], encoding_format: 'float' })
    expect(result.data.map((item) => item.embedding)).toEqual([[2, 0.5], [4, 0.5]])
    expect(proxy.requests[0]).toMatchObject({ path: '/openai/deployments/embedder/embeddings', dialect: 'openai-embeddings', model: 'embedder' })
  })

  test('models.list on /openai/models', async () => {
    const proxy = await startProxy()
    const ids = []
    for await (const model of azureFor(proxy).models.list()) ids.push(model.id)
    expect(ids).toContain('gpt-5')
  })

  test('a 429 refusal is retried by the SDK; a 403 is a PermissionDeniedError at once', async () => {
    const proxy = await startProxy({ agents: ['researcher'] })
    proxy.refuse('rate_limited', { times: 2 })
    const completion = await azureFor(proxy, { maxRetries: 2 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
    expect(completion.choices[0].message.content).not.toBe('')
    expect(proxy.refusals.map((refusal) => refusal.status)).toEqual([429, 429])
    proxy.refuse('rate_limited', { times: 3 })
    await expect(azureFor(proxy, { maxRetries: 2 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(RateLimitError)
    expect(proxy.refusals).toHaveLength(5)
    proxy.refuse('policy_denied', { times: 2 })
    await expect(azureFor(proxy, { maxRetries: 2 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(PermissionDeniedError)
    expect(proxy.refusals).toHaveLength(6)
  })
})

describe('Azure paths on the raw wire', () => {
  const chat = { messages: [{ role: 'user', content: 'hi' }] }
  test('a deployment path without api-version is Azure’s 404 "Resource not found"', async () => {
    const proxy = await startProxy()
    const answer = await postJson(`${proxy.url}/openai/deployments/d/chat/completions`, chat)
    expect(answer.status).toBe(404)
    expect(answer.body).toEqual({ error: { code: '404', message: 'Resource not found' } })
    expect(proxy.requests).toHaveLength(0)
  })

  test('the body may leave out the model on a deployment path; /openai/v1 needs no api-version', async () => {
    const proxy = await startProxy()
    expect((await postJson(`${proxy.url}/openai/deployments/d/chat/completions?api-version=${apiVersion}`, chat)).status).toBe(200)
    expect((await postJson(`${proxy.url}/openai/v1/chat/completions`, { model: 'd', ...chat })).status).toBe(200)
    expect(proxy.requests.map((request) => request.model)).toEqual(['d', 'd'])
  })

  test('malformed JSON and a wrong content type get the OpenAI error shape with 400 and 415', async () => {
    const proxy = await startProxy()
    const url = `${proxy.url}/openai/deployments/d/chat/completions?api-version=${apiVersion}`
    const malformed = await raw(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages": [' })
    expect(malformed.status).toBe(400)
    expect(malformed.body).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringMatching(/not valid JSON/) } })
    const wrongType = await raw(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(chat) })
    expect(wrongType.status).toBe(415)
    const missingMessages = await postJson(url, {})
    expect(missingMessages.status).toBe(400)
    expect(missingMessages.body).toMatchObject({ error: { param: 'messages' } })
  })
})
