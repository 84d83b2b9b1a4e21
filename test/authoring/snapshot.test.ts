// Snapshot serializers: real clients against real doubles, rendered as a conversation with the
// volatile values masked, in inline snapshots and in the snapshot file beside this test.
import Anthropic from '@anthropic-ai/sdk'
import { generateText, stepCountIs, tool } from 'ai'
import OpenAI from 'openai'
import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { configure, FakeProxy, mockAgent, scriptedLLM, toolCall } from '../../src/index.js'
import { snapshotSerializers } from '../../matchers/index.js'
import { maskVolatile } from '../../src/render/mask.js'
import '../matchers/setup-expect.js'

let restore: (() => void) | undefined
afterEach(() => {
  restore?.()
  restore = undefined
})

describe('masks', () => {
  test('ports, UUIDs, ISO dates, epoch timestamps and provider ids (numbered, so pairs stay visible)', () => {
    const text = [
      'http://127.0.0.1:49152/v1 and localhost:3000 and [::1]:8080',
      'run 123e4567-e89b-42d3-a456-426614174000',
      'on 2026-11-30, at 2026-11-30T15:41:20.123Z and 2026-11-30 15:41',
      'created 1764517280 and 1764517280123; price 1999 and order 12345',
      'call_abc123 then toolu_01XyZ9 then call_abc123 again; chatcmpl-9xYz1 resp_68ab12; tool call_home stays',
    ].join('\n')
    expect(maskVolatile(text)).toBe(
      [
        'http://127.0.0.1:<port>/v1 and localhost:<port> and [::1]:<port>',
        'run <uuid>',
        'on <date>, at <date> and <date>',
        'created <timestamp> and <timestamp>; price 1999 and order 12345',
        '<id 1> then <id 2> then <id 1> again; <id 3> <id 4>; tool call_home stays',
      ].join('\n'),
    )
  })

  test('configure({ normalize }) adds masking after the built-in masks', () => {
    restore = configure({ normalize: (text) => text.replace(/order #\d+/g, 'order #<n>') })
    expect(maskVolatile('order #4411 on 2026-01-02')).toBe('order #<n> on <date>')
  })

  test('exported for expect.addSnapshotSerializer: one per double and record', () => {
    expect(snapshotSerializers).toHaveLength(5)
    for (const serializer of snapshotSerializers) {
      expect(typeof serializer.test).toBe('function')
      expect(typeof serializer.serialize).toBe('function')
    }
  })
})

describe('rendered as a conversation', () => {
  test('a FakeProxy the OpenAI and Anthropic SDKs talked to, refusals included', async () => {
    await using proxy = await new FakeProxy({ agents: ['researcher'] }).start()
    proxy.use(scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.', 'Bonjour!']))
    const openai = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0, defaultHeaders: { 'x-viper-agent': 'researcher' } })
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: `Today is ${new Date().toISOString()}. Proxy at ${proxy.url}.` },
      { role: 'user', content: 'Weather in Paris?' },
    ]
    const first = await openai.chat.completions.create({ model: 'gpt-5', messages, tools })
    const call = first.choices[0].message.tool_calls![0]
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: JSON.stringify({ temperature: 21 }) })
    await openai.chat.completions.create({ model: 'gpt-5', messages, tools })
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: proxy.url, maxRetries: 0 })
    await anthropic.messages.create({ model: 'claude-sonnet', max_tokens: 50, system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello\nin French' }] })
    proxy.refuse('rate_limited')
    await expect(openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'again' }] })).rejects.toThrow()

    expect(proxy).toMatchInlineSnapshot(`
      FakeProxy (3 requests) {
        #1 POST /v1/chat/completions · openai-chat · model "gpt-5" · agent "researcher"
          system: Today is <date>. Proxy at http://127.0.0.1:<port>.
          tools offered: get_weather
            get_weather · parameters {"type":"object","properties":{"city":{"type":"string"}}}
          user: Weather in Paris?
          reply: get_weather({"city":"Paris"})
        #2 POST /v1/chat/completions · openai-chat · model "gpt-5" · agent "researcher"
          tool get_weather: {"temperature":21}
          reply: It is sunny in Paris.
        #3 POST /v1/messages · anthropic-messages · model "claude-sonnet"
          system: Be brief.
          user: Say hello
            in French
          reply: Bonjour!
        refused #1: rate_limited (429) POST /v1/chat/completions · openai-chat · model "gpt-5" · agent "researcher"
      }
    `)
    expect({ last: proxy.requests[1] }).toMatchInlineSnapshot(`
      {
        "last": FakeRequest POST /v1/chat/completions · openai-chat · model "gpt-5" · agent "researcher" {
          system: Today is <date>. Proxy at http://127.0.0.1:<port>.
          tools offered: get_weather
            get_weather · parameters {"type":"object","properties":{"city":{"type":"string"}}}
          user: Weather in Paris?
          assistant: get_weather({"city":"Paris"})
          tool get_weather: {"temperature":21}
          reply: It is sunny in Paris.
        },
      }
    `)
  })

  test('a ScriptedLLM under the AI SDK tool loop, into the snapshot file', async () => {
    const llm = scriptedLLM([toolCall('lookup', { id: 'A-1' }), { text: 'Order A-1 has shipped.', reasoning: 'The tool said shipped.' }])
    const lookup = tool({ description: 'Order status', inputSchema: z.object({ id: z.string() }), execute: async () => ({ status: 'shipped', checkedAt: new Date().toISOString() }) })
    await generateText({ model: llm.languageModel(), system: 'You are a support agent.', tools: { lookup }, stopWhen: stepCountIs(3), prompt: 'Where is A-1?' })
    expect(llm).toMatchSnapshot()
    expect(llm.requests[0]).toMatchSnapshot()
  })

  test('a MockAgent: each task and what it answered', async () => {
    const agent = mockAgent({ weather: 'sunny', fail: new Error('boom'), '*': { summary: 'ok' } }, { name: 'researcher' })
    await agent('weather today')
    await agent('summarise\nthis')
    await agent('fail now').catch(() => {})
    expect(agent).toMatchInlineSnapshot(`
      MockAgent "researcher" (3 calls) {
        call 1: weather today
          → sunny
        call 2: summarise
          this
          → {"summary":"ok"}
        call 3: fail now
          → threw Error: boom
      }
    `)
  })

  test('configure({ normalize }) applies to snapshots', async () => {
    restore = configure({ normalize: (text) => text.replace(/ticket \d+/g, 'ticket <n>') })
    const llm = scriptedLLM()
    await llm.generate({ model: 'mock', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: `ticket ${Date.now() % 100000}` }] }] })
    expect(llm).toMatchInlineSnapshot(`
      ScriptedLLM (1 request) {
        #1 model "mock"
          user: ticket <n>
          reply: ticket <n>
      }
    `)
  })
})
