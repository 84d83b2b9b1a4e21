/** A delta's text spliced between quotes reads back exactly as JSON.stringify would have written it. */
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FakeProxy, scriptedLLM } from '../../src/index.js'
import { jsonStringContent } from '../../src/internal/json-string.js'

// Plain text, every escaped character, a surrogate pair, lone surrogates, and the separators JSON leaves alone.
const texts = ['w00 ', '', 'say "hi"', 'back\\slash', 'line\nbreak\ttab\r', 'ctrl \u0000\u0001\u001f', 'emoji 😀 ü 日本', 'lone \ud800 high', 'lone \udfff low', 'sep \u2028\u2029', '\u007f del']

describe('jsonStringContent', () => {
  test('is JSON.stringify without its quotes, and the text itself when nothing is escaped', () => {
    for (const text of texts) expect(`"${jsonStringContent(text)}"`, JSON.stringify(text)).toBe(JSON.stringify(text))
    const plain = 'w00 '
    expect(jsonStringContent(plain)).toBe(plain)
  })
})

describe('streamed deltas with characters to escape reach the SDKs whole', () => {
  const hard = 'He said "hi"\\ then\nleft 😀 \u0001 ok'
  let proxy: FakeProxy
  beforeAll(async () => {
    proxy = await new FakeProxy({ llm: scriptedLLM([{ text: hard }, { text: hard }], { chunking: 'chars' }) }).start()
  })
  afterAll(() => proxy.close())

  test('openai chat stream', async () => {
    const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    let text = ''
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-5', stream: true, messages: [{ role: 'user', content: 'q' }] })) text += chunk.choices[0]?.delta.content ?? ''
    expect(text).toBe(hard)
  })

  test('anthropic messages stream', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: proxy.url, maxRetries: 0 })
    const message = await client.messages.stream({ model: 'claude-x', max_tokens: 64, messages: [{ role: 'user', content: 'q' }] }).finalMessage()
    expect(message.content).toEqual([{ type: 'text', text: hard }])
  })
})
