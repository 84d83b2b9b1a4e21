import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import type { IncomingHttpHeaders } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AgentUnknown, DefinitionUnknown, FeatureUnsupported, FilesUnknown, proxyError } from '../../../src/gateway/proxy-error.js'
import { AgentBook } from '../../../src/gateway/agent-book.js'
import { handleAgentApi } from '../../../src/gateway/agent-api.js'
import { checkModelRequest } from '../../../src/gateway/checks.js'
import { readIdentity } from '../../../src/gateway/identity.js'
import { ProxyClient } from '../../../src/gateway/proxy-client.js'
import { refusalAnswer } from '../../../src/gateway/refusal-answer.js'
import { allFeatures, type ProxyFeature } from '../../../src/server/types.js'
import { readBody, send, serve, type TestServer } from './serve.js'

interface Seen {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
}

// A small stand-in proxy: the real local API and checks, and canned model answers.
let server: TestServer
let book: AgentBook
let features: ProxyFeature[]
let seen: Seen[]
let forceDefinitionUnknown: number
let failPuts: number

const chatAnswer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-5',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok', refusal: null }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
}
const messageAnswer = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-x',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
}

beforeAll(async () => {
  server = await serve(async (req, res) => {
    const body = await readBody(req)
    const path = (req.url ?? '').split('?')[0]
    seen.push({ method: req.method ?? '', path, headers: req.headers, body })
    if (path.startsWith('/elsewhere/')) return send(res, { status: 404, body: { error: { code: 'not_found', message: 'no route' } } })
    if (path.startsWith('/viper/v1/')) {
      if (req.method === 'PUT' && failPuts > 0) {
        failPuts--
        return send(res, refusalAnswer('internal_error', 'local'))
      }
      const answer = await handleAgentApi({ method: req.method ?? 'GET', path, json: body ? JSON.parse(body) : null }, { book, features })
      return send(res, answer ?? { status: 404, body: { error: { code: 'not_found', message: 'no route' } } })
    }
    const style = path.endsWith('/messages') ? 'anthropic' : 'openai'
    const code =
      forceDefinitionUnknown > 0 && forceDefinitionUnknown-- > 0
        ? 'definition_unknown'
        : checkModelRequest({ identity: readIdentity(req.headers), book, strict: true, features: new Set(features), needs: [] })
    if (code) return send(res, refusalAnswer(code, style))
    send(res, { status: 200, body: style === 'anthropic' ? messageAnswer : chatAnswer })
  })
})
afterAll(() => server.close())
beforeEach(() => {
  book = new AgentBook(['researcher', 'writer'])
  features = [...allFeatures]
  seen = []
  forceDefinitionUnknown = 0
  failPuts = 0
})

const puts = () => seen.filter((request) => request.method === 'PUT')
const modelCalls = () => seen.filter((request) => !request.path.startsWith('/viper/'))
const chat = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hi' }] }

describe('ProxyClient local API', () => {
  it('stores skills and memory and registers a definition naming them', async () => {
    const client = new ProxyClient(`${server.url}/`)
    expect(client.url).toBe(server.url)
    expect(await client.info()).toEqual({ api_version: 1, features: allFeatures })
    const skill = await client.skill('search', { 'SKILL.md': '# Search' })
    const memory = await client.instructions({ 'AGENTS.md': 'Cite sources.' })
    expect(skill).toMatch(/^bagaachrafake/)
    expect(await client.skill('search', { 'SKILL.md': '# Search' })).toBe(skill)
    const cid = await client.agent('researcher', { model: 'gpt-5', skills: [skill], memory }).register()
    expect(cid).toBe(book.latestCid('researcher'))
    expect(book.definitions().researcher).toEqual({ model: 'gpt-5', skills: [skill], memory })
  })

  it('throws the proxy refusal as a typed ProxyError', async () => {
    const client = new ProxyClient(server.url)
    await expect(client.agent('researcher', { model: 'm', skills: ['bagaachrafakenope'] }).register()).rejects.toBeInstanceOf(FilesUnknown)
    features = ['definitions']
    const err = await client.instructions({ a: 'b' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(FeatureUnsupported)
    expect(err).toMatchObject({ status: 400, message: expect.stringContaining('"instructions"'), hint: expect.any(String) })
  })

  it('throws a plain Error naming the route for an unmarked failure', async () => {
    const client = new ProxyClient(`${server.url}/elsewhere`)
    await expect(client.info()).rejects.toThrow(/\[agent-doubles\] ProxyClient: GET \/viper\/v1\/info answered 404: no route/)
    await expect(client.info()).rejects.not.toHaveProperty('code')
  })

  it('validates its arguments', async () => {
    expect(() => new ProxyClient('ftp://x')).toThrow(/ProxyClient: url must be an http\(s\) URL such as proxy.url, got "ftp:\/\/x"/)
    expect(() => new ProxyClient(42 as never)).toThrow(TypeError)
    expect(() => new ProxyClient(server.url, { fetch: 'no' } as never)).toThrow(/option fetch must be a fetch function/)
    const client = new ProxyClient(server.url)
    expect(() => client.agent('Researcher')).toThrow(/ProxyClient: agent name must be a string matching/)
    expect(() => client.agent('researcher', { instructions: 'x' } as never)).toThrow(/ProxyClient agent "researcher": definition must be an object with a non-empty string "model"/)
    expect(() => client.agent('researcher').subagent('a//b')).toThrow(/subagent path must be agent names joined by "\/"/)
    expect(() => client.agent('researcher').subagent([])).toThrow(TypeError)
    await expect(client.skill('', { a: 'b' })).rejects.toThrow(/skill name must be a non-empty string/)
    await expect(client.instructions({})).rejects.toThrow(/instruction files must be an object of \{ \[path\]: text \} with at least one file, got \{\}/)
  })
})

describe('AgentBinding', () => {
  it('registers before the first model request, once, and names the agent', async () => {
    const researcher = new ProxyClient(server.url).agent('researcher', { model: 'gpt-5' })
    const openai = new OpenAI({ apiKey: 'test', ...researcher.openai() })
    await openai.chat.completions.create(chat)
    await openai.chat.completions.create(chat)
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual([
      'PUT /viper/v1/agents/researcher/definition',
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
    ])
    const [call] = modelCalls()
    expect(call.headers['x-viper-agent']).toBe('researcher')
    expect(call.headers['x-viper-definition']).toBe(book.latestCid('researcher'))
    expect(call.headers['x-viper-subagent']).toBeUndefined()
    expect(call.headers.authorization).toBe('Bearer test')
    expect(JSON.parse(call.body)).toMatchObject(chat)
  })

  it('shares one registration between concurrent requests and subagents', async () => {
    const researcher = new ProxyClient(server.url).agent('researcher', { model: 'gpt-5' })
    const critic = researcher.subagent('critic')
    const checker = critic.subagent('fact-checker')
    expect(checker.subagentPath).toBe('critic/fact-checker')
    const clients = [researcher, critic, checker, researcher.subagent(['critic', 'fact-checker'])].map((binding) => new OpenAI({ apiKey: 'test', ...binding.openai() }))
    await Promise.all([...clients, ...clients].map((client) => client.chat.completions.create(chat)))
    expect(puts()).toHaveLength(1)
    expect(modelCalls().map((call) => call.headers['x-viper-subagent']).sort()).toEqual(
      [undefined, undefined, 'critic', 'critic', 'critic/fact-checker', 'critic/fact-checker', 'critic/fact-checker', 'critic/fact-checker'].sort(),
    )
  })

  it('after a proxy restart, registers again and resends once', async () => {
    const researcher = new ProxyClient(server.url).agent('researcher', { model: 'gpt-5' })
    const openai = new OpenAI({ apiKey: 'test', maxRetries: 0, ...researcher.openai() })
    await openai.chat.completions.create(chat)
    book.restart()
    seen = []
    const answer = await openai.chat.completions.create(chat)
    expect(answer.choices[0].message.content).toBe('ok')
    expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/chat/completions', 'PUT /viper/v1/agents/researcher/definition', 'POST /v1/chat/completions'])
    expect(seen[0].body).toBe(seen[2].body)
    expect(seen[2].headers['x-viper-definition']).toBe(book.latestCid('researcher'))
  })

  it('a 409 definition_unknown answered once, then 200: register then resend once', async () => {
    const researcher = new ProxyClient(server.url).agent('researcher', { model: 'gpt-5' })
    await researcher.register()
    seen = []
    forceDefinitionUnknown = 1
    const response = await researcher.fetch(new Request(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(chat), headers: { 'content-type': 'application/json' } }))
    expect(response.status).toBe(200)
    expect(seen.map((request) => request.method)).toEqual(['POST', 'PUT', 'POST'])
    expect(JSON.parse(seen[2].body)).toEqual(chat)
  })

  it('resends only once: a second definition_unknown reaches the client', async () => {
    const researcher = new ProxyClient(server.url).agent('researcher', { model: 'gpt-5' })
    const openai = new OpenAI({ apiKey: 'test', ...researcher.openai() })
    forceDefinitionUnknown = 2
    const err = await openai.chat.completions.create(chat).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.ConflictError)
    expect(proxyError(err)).toBeInstanceOf(DefinitionUnknown)
    // x-should-retry: false keeps the SDK from retrying its 409
    expect(seen.map((request) => request.method)).toEqual(['PUT', 'POST', 'PUT', 'POST'])
  })

  it('works for Anthropic through anthropic()', async () => {
    const writer = new ProxyClient(server.url).agent('writer', { model: 'claude-x' }).subagent('editor')
    const anthropic = new Anthropic({ apiKey: 'test', ...writer.anthropic() })
    const message = await anthropic.messages.create({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })
    expect(message.content).toEqual([{ type: 'text', text: 'ok' }])
    const [call] = modelCalls()
    expect(call.path).toBe('/v1/messages')
    expect(call.headers).toMatchObject({ 'x-viper-agent': 'writer', 'x-viper-subagent': 'editor', authorization: 'Bearer test' })
  })

  it('a refused registration reaches the model client as the refusal, in its own error shape', async () => {
    const stranger = new ProxyClient(server.url).agent('stranger', { model: 'm' })
    const openaiErr = await new OpenAI({ apiKey: 'test', ...stranger.openai() }).chat.completions.create(chat).catch((e: unknown) => e)
    expect(openaiErr).toBeInstanceOf(OpenAI.PermissionDeniedError)
    expect((openaiErr as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ code: 'agent_unknown', type: 'proxy_error' })
    expect(proxyError(openaiErr)).toBeInstanceOf(AgentUnknown)
    const anthropicErr = await new Anthropic({ apiKey: 'test', ...stranger.anthropic() }).messages
      .create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)
    expect(anthropicErr).toBeInstanceOf(Anthropic.PermissionDeniedError)
    expect((anthropicErr as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'permission_error', code: 'agent_unknown' } })
    expect(proxyError(anthropicErr)).toBeInstanceOf(AgentUnknown)
    expect(modelCalls()).toHaveLength(0)
  })

  it('a failed registration is not kept: the SDK retry registers again', async () => {
    const researcher = new ProxyClient(server.url).agent('researcher', { model: 'gpt-5' })
    failPuts = 1
    const answer = await new OpenAI({ apiKey: 'test', maxRetries: 1, ...researcher.openai() }).chat.completions.create(chat)
    expect(answer.choices[0].message.content).toBe('ok')
    expect(seen.map((request) => request.method)).toEqual(['PUT', 'PUT', 'POST'])
  })

  it('without a definition, only names the agent', async () => {
    const researcher = new ProxyClient(server.url).agent('researcher')
    expect(await researcher.register()).toBeUndefined()
    const response = await researcher.fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(chat) })
    expect(response.status).toBe(200)
    expect(puts()).toHaveLength(0)
    expect(modelCalls()[0].headers).toMatchObject({ 'x-viper-agent': 'researcher' })
    expect(modelCalls()[0].headers['x-viper-definition']).toBeUndefined()
  })
})
