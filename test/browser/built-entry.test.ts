/**
 * The published files in the browser: `dist/in-process.js` and `dist/matchers/index.js` as tsup
 * built them (scripts/test-browser.sh rebuilds dist/ when src/ is newer) load in Chromium and
 * serve a streamed openai call, so what users install — not only the sources — is browser-safe.
 */
import OpenAI from 'openai'
import { expect, test } from 'vitest'
import { FakeProxy, scriptedLLM } from '../../dist/in-process.js'
import { installMatchers } from '../../dist/matchers/index.js'

installMatchers(expect)

test('the built agent-doubles/in-process serves a streamed openai call in the browser', async () => {
  const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi from dist' }) })
  const openai = new OpenAI({ apiKey: 'k', baseURL: 'http://fake/v1', fetch: proxy.fetch, maxRetries: 0, dangerouslyAllowBrowser: true })
  const stream = await openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello' }], stream: true })
  let text = ''
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
  expect(text).toBe('hi from dist')
  expect(proxy).toHaveReceivedRequest({ dialect: 'openai-chat', stream: true })
  await expect(proxy.start()).rejects.toThrow(/proxy\.fetch/)
})
