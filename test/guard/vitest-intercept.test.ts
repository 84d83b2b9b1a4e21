// `interceptProviders` (the default) through the Vitest fixture, without the setup entry: clients
// with default base URLs reach the test's lane; with no test running, provider hosts are refused.
import Anthropic from '@anthropic-ai/sdk'
import { createOpenAI } from '@ai-sdk/openai'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { afterAll, describe, expect } from 'vitest'
import { test } from '../../fixtures/vitest.js'
import { isNetworkGuardInstalled } from '../../src/guard/network-guard.js'
import { splitFixtureOptions } from '../../fixtures/proxy-lifecycle.js'
import { globalDispatcher, installSafetyNet, withDefaultBaseUrls } from './helpers.js'

const net = installSafetyNet()
afterAll(() => net.restore())

describe('with interceptProviders', () => {
  test('openai and anthropic clients with default base URLs reach the fake', async ({ fakeProxy, scriptedLLM }) => {
    fakeProxy.use(scriptedLLM({ hi: 'hello from the fake' }))
    const openai = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
    expect(openai.baseURL).toBe('https://api.openai.com/v1')
    const chat = await openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
    expect(chat.choices[0]?.message.content).toBe('hello from the fake')
    expect(fakeProxy).toHaveReceivedRequests(1)
    const anthropic = withDefaultBaseUrls(() => new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 }))
    expect(anthropic.baseURL).toBe('https://api.anthropic.com')
    const message = await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] })
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'hello from the fake' })
    expect(fakeProxy).toHaveReceivedRequest({ path: '/v1/messages', dialect: 'anthropic-messages' })
    expect(net.calls.every((call) => call.includes(fakeProxy.url))).toBe(true)
  })

  test('streams and the AI SDK are routed too', async ({ fakeProxy }) => {
    const client = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
    const stream = await client.chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    })
    let text = ''
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
    expect(text.length).toBeGreaterThan(0)
    // The AI SDK provider reads no environment variable: its default URL is api.openai.com.
    await generateText({ model: createOpenAI({ apiKey: 'sk-test' })('gpt-5'), prompt: 'hi', maxRetries: 0 })
    expect(fakeProxy).toHaveReceivedRequests(2)
    expect(fakeProxy).toHaveReceivedRequest({ path: '/v1/responses' })
  })

  test('a provider API the fake does not serve is still refused, saying so', async ({ fakeProxy }) => {
    expect(isNetworkGuardInstalled()).toBe(true)
    const before = net.calls.length
    await expect(fetch('https://api.cohere.com/v2/chat', { method: 'POST' })).rejects.toMatchObject({
      cause: { message: expect.stringContaining('The route to the fake proxy (interceptProviders) has no target for api.cohere.com/v2/chat') },
    })
    expect(net.calls.length).toBe(before)
    expect(fakeProxy).toHaveReceivedRequests(0)
  })
})

test('with no test holding a lane, a provider request is answered 421, not served by the file proxy', async () => {
  expect(isNetworkGuardInstalled()).toBe(true)
  const before = net.calls.length
  const response = await fetch('https://api.openai.com/v1/models')
  expect(response.status).toBe(421)
  expect(response.headers.get('x-should-retry')).toBe('false')
  const body = (await response.json()) as { message: string; error: { code: string; message: string } }
  expect(body.error.code).toBe('AGENT_DOUBLES_REAL_MODEL_CALL')
  expect(body.message).toMatch(/^\[agent-doubles\] A real model was called: GET https:\/\/api\.openai\.com\/v1\/models\nNo fake proxy is active in this test/)
  expect(body.message).not.toContain('serves no such API')
  expect(body.message).toContain('Docs: docs/reference/network-guard.md')
  expect(net.calls.length).toBe(before)
})

test('a test without the fixture: the real openai client makes exactly one request, and its error says no fake proxy is active', async () => {
  // The client's default retries (2, with backoff) stay on: a connection error would be retried.
  const sent: string[] = []
  const client = withDefaultBaseUrls(() => new OpenAI({
    apiKey: 'sk-test',
    fetch: (url, init) => {
      sent.push(String(url))
      return fetch(url, init)
    },
  }))
  expect(client.maxRetries).toBe(2)
  const error = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(sent).toEqual(['https://api.openai.com/v1/chat/completions'])
  expect(error).toBeInstanceOf(OpenAI.APIError)
  expect(error).toMatchObject({ status: 421, code: 'AGENT_DOUBLES_REAL_MODEL_CALL' })
  expect((error as Error).message).toContain('No fake proxy is active in this test')
  expect((error as Error).message).toContain("test('…', async ({ fakeProxy }) =>")
})

test('a test without the fixture: the real Anthropic client makes exactly one request too', async () => {
  const sent: string[] = []
  const client = withDefaultBaseUrls(() => new Anthropic({
    apiKey: 'sk-ant-test',
    fetch: (url, init) => {
      sent.push(String(url))
      return fetch(url, init)
    },
  }))
  const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(sent).toEqual(['https://api.anthropic.com/v1/messages'])
  expect(error).toBeInstanceOf(Anthropic.APIError)
  expect(error).toMatchObject({ status: 421 })
  expect((error as Error).message).toMatch(/^421 \[agent-doubles\] A real model was called: POST https:\/\/api\.anthropic\.com\/v1\/messages\nNo fake proxy is active in this test/)
})

test('a node:http client is answered the same way, nothing sent', async () => {
  const { request } = await import('node:https')
  const before = net.calls.length
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request('https://api.openai.com/v1/models', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
  expect(answer.status).toBe(421)
  expect(JSON.parse(answer.body).message).toContain('No fake proxy is active in this test')
  expect(net.calls.length).toBe(before)
})

test('interceptProviders must be a boolean, and is stripped before new FakeProxy', () => {
  expect(() => splitFixtureOptions('useFakeProxy', { interceptProviders: 'yes' as never })).toThrow(
    '[agent-doubles] useFakeProxy: option interceptProviders must be a boolean, got "yes"',
  )
  expect(splitFixtureOptions('x', { interceptProviders: true, strict: true })).toEqual({ proxyOptions: { strict: true }, interceptProviders: true })
})
