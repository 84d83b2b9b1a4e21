// Through the fixture, a test's lane is named after the test (records and failure context say
// which test a request came from), but its snapshot leaves the name out: renaming a test does
// not break its snapshot (SPEC §22). And a turn the script could not answer says so.
import OpenAI from 'openai'
import { describe, expect } from 'vitest'
import { test } from '../../fixtures/vitest.js'

const ask = async (url: string, text: string) => {
  const client = new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 })
  return client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: text }] })
}

describe('two tests with different names, one conversation', () => {
  for (const name of ['plans a trip', 'plans a trip (renamed)']) {
    test(name, async ({ fakeProxy, scriptedLLM }) => {
      fakeProxy.use(scriptedLLM(['Lisbon.']))
      await ask(fakeProxy.url, 'Where to?')
      await expect(ask(fakeProxy.url, 'And then?')).rejects.toThrow(/script exhausted at turn 2/)
      expect(fakeProxy.name).toBe(name)
      expect(fakeProxy).toMatchInlineSnapshot(`
        ProxyLane (2 requests) {
          #1 POST /v1/chat/completions · openai-chat · model "gpt-5"
            user: Where to?
            reply: Lisbon.
          #2 POST /v1/chat/completions · openai-chat · model "gpt-5"
            user: And then?
            reply: (script exhausted at turn 2: the script has 1 turn)
        }
      `)
    })
  }
})
