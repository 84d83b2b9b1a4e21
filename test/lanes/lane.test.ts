import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import '../matchers/setup-expect.js'
import { FakeProxy, ProxyLane, ScriptedLLM } from '../../src/index.js'

describe('proxy.lane()', () => {
  let proxy: FakeProxy
  beforeAll(async () => {
    proxy = await new FakeProxy({ agents: ['researcher'] }).start()
  })
  afterAll(() => proxy.close())

  test('a lane is a FakeProxy with its own URL, brain and records', async () => {
    await using lane = proxy.lane('first')
    expect(lane).toBeInstanceOf(FakeProxy)
    expect(lane).toBeInstanceOf(ProxyLane)
    expect(proxy).not.toBeInstanceOf(ProxyLane)
    expect(lane.url).toMatch(new RegExp(`^${proxy.url}/~[0-9a-z]+$`))
    lane.use(new ScriptedLLM(['from the lane']))
    const client = new OpenAI({ apiKey: 'test', baseURL: `${lane.url}/v1`, maxRetries: 0 })
    const answer = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
    expect(answer.choices[0]?.message.content).toBe('from the lane')
    expect(lane).toHaveReceivedRequests(1)
    expect(lane.requests[0]?.lane).toBe('first')
    expect(lane.requests[0]?.path).toBe('/v1/chat/completions')
    // The proxy sees every open lane's traffic; another lane sees none of it.
    expect(proxy.requests.map((request) => request.lane)).toEqual(['first'])
    await using other = proxy.lane('second')
    expect(other.requests).toEqual([])
    expect(other).toHaveReceivedRequests(0)
  })

  test('lanes answer side by side with their own scripts (Anthropic and OpenAI, streamed)', async () => {
    const lanes = Array.from({ length: 5 }, (_, index) => proxy.lane(`lane ${index}`).use(new ScriptedLLM([`answer ${index}`])))
    const texts = await Promise.all(
      lanes.map(async (lane, index) => {
        if (index % 2 === 0) {
          const client = new Anthropic({ apiKey: 'test', baseURL: lane.url, maxRetries: 0 })
          const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] })
          return (await stream.finalMessage()).content.map((part) => (part.type === 'text' ? part.text : '')).join('')
        }
        const client = new OpenAI({ apiKey: 'test', baseURL: `${lane.url}/v1`, maxRetries: 0 })
        const stream = await client.chat.completions.create({ model: 'gpt-5', stream: true, messages: [{ role: 'user', content: 'hi' }] })
        let text = ''
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? ''
        return text
      }),
    )
    expect(texts).toEqual(lanes.map((_, index) => `answer ${index}`))
    for (const lane of lanes) await lane.close()
  })

  test('a closed lane answers 404 in the dialect shape naming it; the proxy and other lanes carry on', async () => {
    const lane = proxy.lane('short-lived')
    const url = lane.url
    await lane.close()
    expect(() => lane.url).toThrow(/lane "short-lived": url read after the lane was closed/)
    const anthropic = new Anthropic({ apiKey: 'test', baseURL: url, maxRetries: 2 })
    const error = await anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(Anthropic.NotFoundError)
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('lane "short-lived"') } })
    const openai = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 })
    await expect(openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.NotFoundError)
    const unknown = await fetch(`${proxy.url}/~nosuchlane/v1/models`)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: { message: expect.stringContaining('~nosuchlane is closed or never existed') } })
    // The proxy itself still serves.
    const root = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    await expect(root.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).resolves.toBeDefined()
  })

  test('bad input: a name that is not a string, lanes of a stopped proxy, constructing a lane', async () => {
    expect(() => proxy.lane(42 as unknown as string)).toThrow(/FakeProxy lane\(\): name must be a non-empty string, got 42|FakeProxy lane\(\).*name.*42/)
    expect(() => proxy.lane('')).toThrow(/non-empty string/)
    expect(() => new ProxyLane()).toThrow(/lanes are made by proxy.lane/)
    const stopped = new FakeProxy()
    expect(() => stopped.lane()).toThrow(/lane\(\): the proxy is not running/)
    await stopped.start()
    const lane = stopped.lane()
    await stopped.close()
    expect(() => stopped.lane()).toThrow(/not running/)
    expect(() => lane.url).toThrow(/closed/)
  })

  test('a lane inherits the proxy options (agents, strict) and keeps its own definitions', async () => {
    const strictProxy = await new FakeProxy({ agents: ['researcher'], strict: true }).start()
    try {
      await using lane = strictProxy.lane()
      const client = new OpenAI({ apiKey: 'test', baseURL: `${lane.url}/v1`, maxRetries: 0 })
      await expect(client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400 })
      expect(lane.refusals.map((refusal) => refusal.code)).toEqual(['agent_required'])
      expect(strictProxy.refusals.map((refusal) => refusal.request.lane)).toEqual([lane.name])
      expect(await lane.start()).toBe(lane)
    } finally {
      await strictProxy.close()
    }
  })
})
