// proxyError on the errors the real clients throw, against a real HTTP server answering with refusalAnswer.
import { createAnthropic } from '@ai-sdk/anthropic'
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProxyError, RateLimited, UpstreamResponseLost, proxyError } from '../../../src/gateway/proxy-error.js'
import { refusalAnswer } from '../../../src/gateway/refusal-answer.js'
import { isRefusalCode, refusalCodes, type RefusalCode } from '../../../src/gateway/refusal-codes.js'
import { readBody, send, serve, type TestServer } from './serve.js'

const codes = Object.keys(refusalCodes) as RefusalCode[]
let server: TestServer
const hits = new Map<string, number>()

beforeAll(async () => {
  // The first path segment says what to answer: a refusal code, or 'unmarked' for a plain 500.
  server = await serve(async (req, res) => {
    await readBody(req)
    const [, first, ...rest] = (req.url ?? '').split('/')
    hits.set(first, (hits.get(first) ?? 0) + 1)
    if (!isRefusalCode(first)) return send(res, { status: 500, body: { error: { message: 'boom', type: 'server_error' } } })
    const style = rest.join('/').endsWith('messages') ? 'anthropic' : 'openai'
    send(res, refusalAnswer(first, style, { message: `refused: ${first}`, hint: `hint for ${first}` }))
  })
})
afterAll(() => server.close())

async function caught(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run()
  } catch (err) {
    return err
  }
  throw new Error('expected the call to fail')
}

function expectTyped(err: unknown, code: RefusalCode): void {
  const found = proxyError(err)
  expect(found).toBeInstanceOf(ProxyError)
  expect(found?.name).toBe(code.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase()))
  expect(found).toMatchObject({ code, status: refusalCodes[code].status, message: `refused: ${code}`, hint: `hint for ${code}` })
}

const chat = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hi' }] }
const message = { model: 'claude-x', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] }

describe('openai', () => {
  it.each(codes)('%s', async (code) => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/${code}/v1`, maxRetries: 0 })
    const err = await caught(() => client.chat.completions.create(chat))
    expect(err).toBeInstanceOf(OpenAI.APIError)
    expectTyped(err, code)
  })

  it('retries the retried codes (fast) and never resends upstream_response_lost', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/rate_limited/v1`, maxRetries: 2 })
    hits.set('rate_limited', 0)
    expect(proxyError(await caught(() => client.chat.completions.create(chat)))).toBeInstanceOf(RateLimited)
    expect(hits.get('rate_limited')).toBe(3)
    const lost = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/upstream_response_lost/v1`, maxRetries: 2 })
    hits.set('upstream_response_lost', 0)
    expect(proxyError(await caught(() => lost.chat.completions.create(chat)))).toBeInstanceOf(UpstreamResponseLost)
    expect(hits.get('upstream_response_lost')).toBe(1)
  })

  it('an unmarked 500 → undefined', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/unmarked/v1`, maxRetries: 0 })
    const err = await caught(() => client.chat.completions.create(chat))
    expect(err).toBeInstanceOf(OpenAI.InternalServerError)
    expect(proxyError(err)).toBeUndefined()
  })
})

describe('@anthropic-ai/sdk', () => {
  it.each(codes)('%s', async (code) => {
    const client = new Anthropic({ apiKey: 'test', baseURL: `${server.url}/${code}`, maxRetries: 0 })
    const err = await caught(() => client.messages.create(message))
    expect(err).toBeInstanceOf(Anthropic.APIError)
    expectTyped(err, code)
  })

  it('an unmarked 500 → undefined', async () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: `${server.url}/unmarked`, maxRetries: 0 })
    expect(proxyError(await caught(() => client.messages.create(message)))).toBeUndefined()
  })
})

describe('ai + @ai-sdk/openai and @ai-sdk/anthropic', () => {
  it.each(codes)('%s', async (code) => {
    const openai = createOpenAI({ apiKey: 'test', baseURL: `${server.url}/${code}/v1` })
    expectTyped(await caught(() => generateText({ model: openai.chat('gpt-5'), prompt: 'hi', maxRetries: 0 })), code)
    const anthropic = createAnthropic({ apiKey: 'test', baseURL: `${server.url}/${code}/v1` })
    expectTyped(await caught(() => generateText({ model: anthropic('claude-x'), prompt: 'hi', maxRetries: 0 })), code)
  })

  it('unwraps the RetryError after retries', async () => {
    const openai = createOpenAI({ apiKey: 'test', baseURL: `${server.url}/internal_error/v1` })
    const err = await caught(() => generateText({ model: openai.responses('gpt-5'), prompt: 'hi', maxRetries: 1 }))
    expect((err as Error).name).toBe('AI_RetryError')
    expectTyped(err, 'internal_error')
  })

  it('an unmarked 500 → undefined', async () => {
    const openai = createOpenAI({ apiKey: 'test', baseURL: `${server.url}/unmarked/v1` })
    expect(proxyError(await caught(() => generateText({ model: openai.chat('gpt-5'), prompt: 'hi', maxRetries: 0 })))).toBeUndefined()
  })
})
