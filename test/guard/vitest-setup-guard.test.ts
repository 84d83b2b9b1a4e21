// The setup entry, imported as a setupFiles entry would be: the guard is on from load, so a
// client this file builds at module level is guarded too.
import { netAtLoad } from './net-at-load.js'
import '../../fixtures/vitest-setup.js'
import { createServer } from 'node:http'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { isNetworkGuardInstalled } from '../../src/guard/network-guard.js'
import { REAL_MODEL_CALL } from '../../src/guard/real-model-call.js'
import { useDefaultBaseUrls, withDefaultBaseUrls } from './helpers.js'
import { test as fixtureTest } from '../../fixtures/vitest.js'

const restoreEnv = useDefaultBaseUrls()
const moduleLevelClient = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 })
restoreEnv()

const server = createServer((_req, res) => res.end('local'))
let localUrl = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  localUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

test('the guard is on from the moment the setup entry loads', () => {
  expect(isNetworkGuardInstalled()).toBe(true)
})

test('a client built at module level is answered 421 with the guard message, nothing sent', async () => {
  expect(moduleLevelClient.baseURL).toBe('https://api.openai.com/v1')
  await expect(moduleLevelClient.models.list()).rejects.toMatchObject({
    status: 421,
    code: REAL_MODEL_CALL,
    message: expect.stringContaining('A real model was called: GET https://api.openai.com/v1/models\nNo fake proxy is active in this test'),
  })
  expect(netAtLoad.calls).toEqual([])
})

/** A `fetch` for a client that lists each attempt it makes (a retry is another attempt). */
function countingFetch(sent: string[]): typeof fetch {
  return (url, init) => {
    sent.push(String(url))
    return fetch(url, init)
  }
}

test('the real openai client, default retries on, makes one request: the guard answers 421 saying no fake proxy is active and how to get one', async () => {
  const sent: string[] = []
  const client = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', fetch: countingFetch(sent) }))
  expect(client.maxRetries).toBe(2)
  const error = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (thrown: unknown) => thrown)
  expect(sent).toEqual(['https://api.openai.com/v1/chat/completions'])
  expect(error).toBeInstanceOf(OpenAI.APIError)
  expect(error).toMatchObject({ status: 421, code: REAL_MODEL_CALL })
  const message = (error as Error).message
  expect(message).toMatch(/^421 \[agent-doubles\] A real model was called: POST https:\/\/api\.openai\.com\/v1\/chat\/completions\nNo fake proxy is active in this test/)
  expect(message).toContain('answered 421 (x-should-retry: false) so the client does not retry')
  expect(message).toContain("test('…', async ({ fakeProxy }) =>")
  expect(message).toContain('useFakeProxy()')
  expect(message).not.toContain('serves no such API')
  expect(netAtLoad.calls).toEqual([])
})

test('the real Anthropic client, default retries on, makes one request too', async () => {
  const sent: string[] = []
  const client = withDefaultBaseUrls(() => new Anthropic({ apiKey: 'sk-ant-test', fetch: countingFetch(sent) }))
  expect(client.maxRetries).toBe(2)
  const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (thrown: unknown) => thrown)
  expect(sent).toEqual(['https://api.anthropic.com/v1/messages'])
  expect(error).toBeInstanceOf(Anthropic.APIError)
  expect(error).toMatchObject({ status: 421 })
  expect((error as Error).message).toMatch(/^421 \[agent-doubles\] A real model was called: POST https:\/\/api\.anthropic\.com\/v1\/messages\nNo fake proxy is active in this test/)
  expect(netAtLoad.calls).toEqual([])
})

test('loopback traffic passes untouched', async () => {
  const res = await fetch(localUrl)
  expect(await res.text()).toBe('local')
  expect(netAtLoad.calls).toEqual([`GET ${localUrl}/`])
})

// The fixture's test, in this file only for the next block: no route to the fake.
fixtureTest.override({ fakeProxyOptions: { interceptProviders: false } })

describe('with the fakeProxy fixture and interceptProviders: false', () => {
  fixtureTest('a client that does not point at the fake is answered 421 naming the active fake and how to point at it', async ({ fakeProxy }) => {
    const before = netAtLoad.calls.length
    const sent: string[] = []
    const error = await moduleLevelClient.withOptions({ fetch: countingFetch(sent) }).models.list().then(() => undefined, (thrown: unknown) => thrown)
    expect(sent).toEqual(['https://api.openai.com/v1/models'])
    expect(error).toMatchObject({ status: 421 })
    const message = (error as Error).message
    expect(message).toContain(`A fake proxy is active in this test (${new URL(fakeProxy.url).origin}), but this client does not point at it`)
    expect(message).toContain('new OpenAI({ baseURL: `${proxy.url}/v1` })')
    expect(message).not.toContain('No fake proxy is active')
    expect(fakeProxy).toHaveReceivedRequests(0)
    expect(netAtLoad.calls).toHaveLength(before)
  })
})
