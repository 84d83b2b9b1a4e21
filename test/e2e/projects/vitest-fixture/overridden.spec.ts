// The exported `test` fixture with this file's own fakeProxyOptions: strict, with a scripted brain.
// The driver starts the child with OPENAI_BASE_URL=http://sentinel.invalid/v1 and no ANTHROPIC_BASE_URL.
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll } from 'vitest'
import { ScriptedLLM } from 'agent-doubles'
import { expect, test as base } from 'agent-doubles/vitest'

const prior = { openai: process.env.OPENAI_BASE_URL, anthropic: process.env.ANTHROPIC_BASE_URL }
const test = base.override({
  fakeProxyOptions: { strict: true, llm: new ScriptedLLM({ weather: 'sunny in Paris', '*': 'no idea' }) },
})
let firstServer = ''

/** The file server's URL behind a lane's `<server>/~<id>`. */
const serverOf = (url: string): string => url.replace(/\/~[^/]+$/, '')

afterAll(() => {
  // The file-scoped proxy is still open here: the variables name its root until it closes, after
  // this hook, which puts them back (test/fixtures/env-per-file.test.ts checks that restore).
  expect(prior.openai).toBe('http://sentinel.invalid/v1')
  expect(prior.anthropic).toBeUndefined()
  expect(process.env.OPENAI_BASE_URL).toBe(`${firstServer}/v1`)
  expect(process.env.ANTHROPIC_BASE_URL).toBe(firstServer)
})

test('new OpenAI() reaches the proxy through OPENAI_BASE_URL and gets the file’s scripted brain', async ({ fakeProxy }) => {
  firstServer = serverOf(fakeProxy.url)
  // The environment names the file server's root; with one test running, that is this test's lane.
  expect(process.env.OPENAI_BASE_URL).toBe(`${firstServer}/v1`)
  const openai = new OpenAI({ apiKey: 'test', maxRetries: 0, defaultHeaders: { 'x-viper-agent': 'researcher' } })
  const completion = await openai.chat.completions.create({
    model: 'gpt-5',
    messages: [{ role: 'user', content: 'weather in Paris?' }],
  })
  expect(completion.choices[0].message.content).toBe('sunny in Paris')
  expect(fakeProxy).toHaveBeenCalledWithTask('weather in Paris?')
  expect(fakeProxy).toHaveReceivedRequest({ agent: 'researcher', path: '/v1/chat/completions' })
})

test('new Anthropic() reaches the same server through ANTHROPIC_BASE_URL; strict refuses a request with no agent', async ({
  fakeProxy,
}) => {
  // A fresh lane of the same server.
  expect(serverOf(fakeProxy.url)).toBe(firstServer)
  expect(fakeProxy).toHaveReceivedRequests(0)
  expect(process.env.ANTHROPIC_BASE_URL).toBe(firstServer)
  const anthropic = new Anthropic({ apiKey: 'test', maxRetries: 0 })
  const refused = anthropic.messages.create({ model: 'claude-e2e', max_tokens: 64, messages: [{ role: 'user', content: 'weather?' }] })
  await expect(refused).rejects.toHaveRefusedWith('agent_required')
  expect(fakeProxy).toHaveRefusedWith('agent_required', { times: 1 })

  const researcher = new Anthropic({ apiKey: 'test', maxRetries: 0, defaultHeaders: { 'x-viper-agent': 'researcher' } })
  const message = await researcher.messages.create({
    model: 'claude-e2e',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'weather in Paris?' }],
  })
  expect(message.content[0]).toMatchObject({ type: 'text', text: 'sunny in Paris' })
  expect(fakeProxy).toHaveReceivedRequest({ path: '/v1/messages', agent: 'researcher' })
})

test('between tests, and in a test that does not use the proxy, the variables name the file server\'s root (pointed once per file)', ({ mockAgent }) => {
  expect(process.env.OPENAI_BASE_URL).toBe(`${firstServer}/v1`)
  expect(process.env.ANTHROPIC_BASE_URL).toBe(firstServer)
  const agent = mockAgent('done', { name: 'solo' })
  expect(agent.name).toBe('solo')
})
