// Issue 7: clients built before the fixture ran — module-level AI SDK providers, a module-scope
// `new OpenAI()`, `undici.request`, `https.request` — reach the test's lane inside the fixture,
// concurrently, and are refused with the guard's clear error outside it.
import https from 'node:https'
import { anthropic } from '@ai-sdk/anthropic'
import { openai } from '@ai-sdk/openai'
import { generateText } from 'ai'
import OpenAI from 'openai'
import * as undici from 'undici'
import { describe } from 'vitest'
import { expect, test } from '../../fixtures/vitest.js'
import { withDefaultBaseUrls } from '../guard/helpers.js'
import { localLookup, send } from '../routing/http-helpers.js'

// Built at import, before any fixture: the default hosts are baked in.
const moduleClient = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
const chatBody = (content: string) => JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content }] })
// Whatever gets past the guard stays on this machine, and `lookups` shows it tried.
const lookups: string[] = []

describe.concurrent('inside the fixture, each reaches its own test', () => {
  for (let index = 0; index < 4; index++) {
    test(`test ${index}`, async ({ fakeProxy, scriptedLLM }) => {
      fakeProxy.use(scriptedLLM([`sdk openai ${index}`, `sdk anthropic ${index}`, `module ${index}`, `undici ${index}`, `https ${index}`]))
      expect((await generateText({ model: openai('gpt-5'), prompt: 'a', maxRetries: 0 })).text).toBe(`sdk openai ${index}`)
      expect((await generateText({ model: anthropic('claude-sonnet-4-6'), prompt: 'b', maxRetries: 0 })).text).toBe(`sdk anthropic ${index}`)
      const completion = await moduleClient.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'c' }] })
      expect(completion.choices[0]?.message.content).toBe(`module ${index}`)
      const viaUndici = await undici.request('https://api.openai.com/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
        body: chatBody('d'),
      })
      expect(viaUndici.statusCode).toBe(200)
      expect(((await viaUndici.body.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe(`undici ${index}`)
      const viaHttps = await send(
        https.request,
        'https://api.openai.com/v1/chat/completions',
        { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' }, lookup: localLookup(lookups) },
        chatBody('e'),
      )
      expect(viaHttps.status).toBe(200)
      expect(JSON.parse(viaHttps.body).choices[0].message.content).toBe(`https ${index}`)
      expect(fakeProxy).toHaveReceivedRequests(5)
      expect(fakeProxy.requests.map((request) => request.dialect)).toEqual(['openai-responses', 'anthropic-messages', 'openai-chat', 'openai-chat', 'openai-chat'])
    })
  }
})

test('outside the fixture every one of them is refused before anything is sent', async () => {
  const saved = process.env.OPENAI_API_KEY
  process.env.OPENAI_API_KEY = 'sk-test'
  try {
    // SDK clients get the guard's answer, a 421 they do not retry (SPEC §22), carrying its message.
    await expect(generateText({ model: openai('gpt-5'), prompt: 'a', maxRetries: 0 })).rejects.toMatchObject({ statusCode: 421, message: expect.stringMatching(/api\.openai\.com/) })
    await expect(moduleClient.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'c' }] })).rejects.toMatchObject({ status: 421, message: expect.stringMatching(/api\.openai\.com/) })
    const viaUndici = await undici.request('https://api.openai.com/v1/chat/completions', { method: 'POST', body: chatBody('d') })
    expect(viaUndici.statusCode).toBe(421)
    expect(await viaUndici.body.text()).toMatch(/api\.openai\.com/)
    const viaHttps = await send(https.request, 'https://api.openai.com/v1/chat/completions', { method: 'POST', lookup: localLookup(lookups) }, chatBody('e'))
    expect(viaHttps.status).toBe(421)
    expect(viaHttps.body).toMatch(/api\.openai\.com/)
    expect(lookups).toEqual([])
  } finally {
    if (saved === undefined) delete process.env.OPENAI_API_KEY
    else process.env.OPENAI_API_KEY = saved
  }
})
