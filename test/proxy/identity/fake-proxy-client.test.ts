// ProxyClient and proxyError through the real FakeProxy (SPEC §5 example, restart, refusals, files).
import { createOpenAI } from '@ai-sdk/openai'
import Anthropic from '@anthropic-ai/sdk'
import { generateText } from 'ai'
import OpenAI from 'openai'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AgentUnknown, FilesUnknown, UpstreamResponseLost, proxyError } from '../../../src/gateway/proxy-error.js'
import { FakeProxy } from '../../../src/server/fake-proxy.js'
import { ProxyClient } from '../../../src/gateway/proxy-client.js'

let proxy: FakeProxy
beforeAll(async () => {
  proxy = await new FakeProxy({ agents: ['researcher', 'writer'], strict: true }).start()
})
afterAll(() => proxy.close())
beforeEach(() => proxy.reset())

const chat = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hi' }] }

describe('ProxyClient against FakeProxy', () => {
  it('the SPEC example: the request names the agent and its latest definition', async () => {
    const researcher = new ProxyClient(proxy.url).agent('researcher', { model: 'gpt-5', skills: [] })
    const client = new OpenAI({ apiKey: 'test', ...researcher.openai() })
    await client.chat.completions.create(chat)
    const request = proxy.requests.at(-1)
    expect(request).toMatchObject({ agent: 'researcher', subagent: undefined, path: '/v1/chat/completions' })
    expect(request?.definitionCid).toMatch(/^fake-/)
    expect(request?.headers['x-viper-agent']).toBeUndefined()
    expect(proxy.definitions).toEqual({ researcher: { model: 'gpt-5' } })
  })

  it('after proxy.restart() the binding registers again and resends: nothing is refused to the caller', async () => {
    const researcher = new ProxyClient(proxy.url).agent('researcher', { model: 'gpt-5' })
    const client = new OpenAI({ apiKey: 'test', maxRetries: 0, ...researcher.openai() })
    await client.chat.completions.create(chat)
    proxy.restart()
    expect(proxy.definitions).toEqual({})
    const answer = await client.chat.completions.create(chat)
    expect(answer.choices[0].message.role).toBe('assistant')
    expect(proxy.refusals.map((refusal) => refusal.code)).toEqual(['definition_unknown'])
    expect(proxy.requests).toHaveLength(2)
    expect(proxy.definitions).toEqual({ researcher: { model: 'gpt-5' } })
  })

  it('after proxy.restart() a binding with skills and memory recovers too', async () => {
    const client = new ProxyClient(proxy.url)
    const skill = await client.skill('search', { 'SKILL.md': '# Search' })
    const memory = await client.instructions({ 'AGENTS.md': 'Cite sources.' })
    const researcher = client.agent('researcher', { model: 'gpt-5', skills: [skill], memory })
    const openai = new OpenAI({ apiKey: 'test', maxRetries: 0, ...researcher.openai() })
    await openai.chat.completions.create(chat)
    proxy.restart()
    await expect(openai.chat.completions.create(chat)).resolves.toMatchObject({ object: 'chat.completion' })
    expect(proxy.refusals.map((refusal) => refusal.code)).toEqual(['definition_unknown'])
    expect(proxy.definitions.researcher).toEqual({ model: 'gpt-5', skills: [skill], memory })
  })

  it('skills and memory: held files are accepted, others refused with files_unknown', async () => {
    const client = new ProxyClient(proxy.url)
    const skill = await client.skill('search', { 'SKILL.md': '# Search' })
    const memory = await client.instructions({ 'AGENTS.md': 'Cite sources.' })
    const writer = client.agent('writer', { model: 'claude-x', skills: [skill], memory }).subagent('editor')
    const anthropic = new Anthropic({ apiKey: 'test', ...writer.anthropic() })
    await anthropic.messages.create({ model: 'claude-x', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })
    expect(proxy.requests.at(-1)).toMatchObject({ agent: 'writer', subagent: 'editor', dialect: 'anthropic-messages' })
    expect(proxy.definitions.writer).toEqual({ model: 'claude-x', skills: [skill], memory })
    await expect(client.agent('writer', { model: 'm', skills: ['bagaachrafakeunknown'] }).register()).rejects.toBeInstanceOf(FilesUnknown)
  })

  it('refusals reach each SDK as their own errors, typed by proxyError', async () => {
    const researcher = new ProxyClient(proxy.url).agent('researcher', { model: 'gpt-5' })
    proxy.refuse('upstream_response_lost', { hint: 'check before resending' })
    const err = await new OpenAI({ apiKey: 'test', ...researcher.openai() }).chat.completions.create(chat).catch((e: unknown) => e)
    expect(proxyError(err)).toBeInstanceOf(UpstreamResponseLost)
    expect(proxyError(err)?.hint).toBe('check before resending')

    proxy.refuse('upstream_response_lost')
    const aiSdk = createOpenAI({ apiKey: 'test', ...researcher.openai() })
    const aiErr = await generateText({ model: aiSdk.responses('gpt-5'), prompt: 'hi', maxRetries: 0 }).catch((e: unknown) => e)
    expect(proxyError(aiErr)).toBeInstanceOf(UpstreamResponseLost)

    const stranger = new ProxyClient(proxy.url).agent('stranger', { model: 'm' })
    const strangerErr = await new OpenAI({ apiKey: 'test', ...stranger.openai() }).chat.completions.create(chat).catch((e: unknown) => e)
    expect(proxyError(strangerErr)).toBeInstanceOf(AgentUnknown)
  })
})
