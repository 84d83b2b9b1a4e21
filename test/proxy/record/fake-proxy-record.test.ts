/**
 * Record mode through the public form, `new FakeProxy({ upstream, record })` (SPEC §5.8): the
 * proxy's own checks still come first, model requests go to the upstream with the caller's
 * auth, and each turn lands in a transcript that replays.
 */
import Anthropic from '@anthropic-ai/sdk'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { ScriptedLLM } from '../../../src/llm/scripted-llm.js'
import { proxyError } from '../../../src/gateway/proxy-error.js'
import { FakeProxy } from '../../../src/server/fake-proxy.js'
import { ProxyClient } from '../../../src/gateway/proxy-client.js'
import { listLLM, startProxy, text } from '../helpers.js'
import { tempDir, transcriptLines } from './mount.js'
import { deadOrigin } from './serve.js'

const OPENAI_KEY = 'sk-openai-PUBLIC-SECRET-9'
const ANTHROPIC_KEY = 'sk-ant-PUBLIC-SECRET-8'

async function upstreamAndFile() {
  const upstream = await startProxy({ llm: new ScriptedLLM({ hello: 'Hello from upstream.' }) })
  const file = join(await tempDir(), 'transcripts', 'run.jsonl')
  return { upstream, file }
}

describe('new FakeProxy({ upstream, record })', () => {
  test('a planned fault waits for a request the fake answers itself; forwarded ones pass through', async () => {
    const { upstream, file } = await upstreamAndFile()
    const proxy = await startProxy({ upstream: { anthropic: upstream.url }, record: file, llm: listLLM(text('from the brain')) })
    proxy.fail({ kind: 'malformed' })
    const anthropic = new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: proxy.url, maxRetries: 0 })
    const forwarded = await anthropic.messages.create({ model: 'c', max_tokens: 20, messages: [{ role: 'user', content: 'hello' }] })
    expect(forwarded.content).toEqual([expect.objectContaining({ text: 'Hello from upstream.' })])
    const openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    await expect(openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow()
    await expect(openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).resolves.toMatchObject({
      choices: [expect.objectContaining({ message: expect.objectContaining({ content: 'from the brain' }) })],
    })
  })

  test('forwards an agent’s model requests with the caller’s auth, answers unchanged, and records every turn', async () => {
    const { upstream, file } = await upstreamAndFile()
    const proxy = await startProxy({ agents: ['researcher'], upstream: { openai: upstream.url, anthropic: upstream.url }, record: file })
    const researcher = new ProxyClient(proxy.url).agent('researcher', { model: 'gpt-test' })
    const openai = new OpenAI({ apiKey: OPENAI_KEY, maxRetries: 0, ...researcher.openai() })
    const anthropic = new Anthropic({ apiKey: ANTHROPIC_KEY, maxRetries: 0, ...researcher.anthropic() })

    const chat = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] })
    expect(chat.choices[0].message.content).toBe('Hello from upstream.')
    const message = await anthropic.messages.stream({ model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'echo me' }] }).finalMessage()
    expect(message.content).toEqual([{ type: 'text', text: 'echo me' }])

    // The proxy recorded both as its own requests, with the upstream's answer.
    expect(proxy.requests.map((r) => [r.agent, r.dialect, r.response?.content])).toEqual([
      ['researcher', 'openai-chat', [{ type: 'text', text: 'Hello from upstream.' }]],
      ['researcher', 'anthropic-messages', [{ type: 'text', text: 'echo me' }]],
    ])
    // The upstream saw the caller's auth, and none of the proxy's identity headers.
    expect(upstream.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${OPENAI_KEY}`, `Bearer ${ANTHROPIC_KEY}`])
    expect(upstream.requests.map((r) => r.agent)).toEqual([undefined, undefined])

    const lines = await transcriptLines(file)
    expect(lines.map((l) => l.response.content)).toEqual([[{ type: 'text', text: 'Hello from upstream.' }], [{ type: 'text', text: 'echo me' }]])
    const written = await readFile(file, 'utf8')
    for (const secret of [OPENAI_KEY, ANTHROPIC_KEY, 'researcher', 'x-viper']) expect(written).not.toContain(secret)

    const replay = await startProxy({ llm: await ScriptedLLM.fromTranscript(file, { strict: true }) })
    const again = new OpenAI({ apiKey: 'test', baseURL: `${replay.url}/v1`, maxRetries: 0 })
    expect((await again.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hello' }] })).choices[0].message.content).toBe('Hello from upstream.')
    expect((await again.responses.create({ model: 'm', input: 'echo me' })).output_text).toBe('echo me')
  })

  test('the proxy’s checks and planned refusals come first: a refused request is never forwarded', async () => {
    const { upstream, file } = await upstreamAndFile()
    const proxy = await startProxy({ agents: ['researcher'], upstream: { openai: upstream.url }, record: file })
    const stranger = new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0, defaultHeaders: { 'x-viper-agent': 'stranger' } })
    const error = await stranger.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)
    expect(proxyError(error)?.code).toBe('agent_unknown')
    proxy.refuse('rate_limited')
    const limited = await new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)
    expect(proxyError(limited)?.code).toBe('rate_limited')
    expect(upstream.requests).toEqual([])
    expect(await transcriptLines(file)).toEqual([])
  })

  test('a dialect without an upstream is answered by the brain, and nothing of it is recorded', async () => {
    const { upstream, file } = await upstreamAndFile()
    const proxy = await startProxy({ llm: listLLM(text('from the brain')), upstream: { anthropic: upstream.url }, record: file })
    const chat = await new OpenAI({ apiKey: OPENAI_KEY, baseURL: `${proxy.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hello' }] })
    expect(chat.choices[0].message.content).toBe('from the brain')
    expect(upstream.requests).toEqual([])
    expect(await transcriptLines(file)).toEqual([])
  })

  test('an unreachable upstream is refused with upstream_unreachable, recorded in refusals', async () => {
    const file = join(await tempDir(), 'run.jsonl')
    const origin = await deadOrigin()
    const proxy = await startProxy({ upstream: { anthropic: origin }, record: file })
    const error = await new Anthropic({ apiKey: ANTHROPIC_KEY, baseURL: proxy.url, maxRetries: 0 }).messages
      .create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)
    expect(proxyError(error)).toMatchObject({ code: 'upstream_unreachable', status: 502 })
    expect(proxy.refusals.map((r) => r.code)).toEqual(['upstream_unreachable'])
    expect(proxy.requests).toEqual([])
    expect(await transcriptLines(file)).toEqual([])
  })

  test('malformed record options throw TypeErrors naming FakeProxy', () => {
    expect(() => new FakeProxy({ record: 'x.jsonl' })).toThrow(/\[agent-doubles\] FakeProxy: option record needs option upstream/)
    expect(() => new FakeProxy({ upstream: { openai: 'https://api.openai.com' } })).toThrow(/FakeProxy: option upstream needs option record/)
    expect(() => new FakeProxy({ upstream: { openai: 'api.openai.com' }, record: 'x.jsonl' })).toThrow(/FakeProxy: option upstream.openai must be an http\(s\) URL/)
    expect(() => new FakeProxy({ upstream: { gemini: 'https://x.example' } as never, record: 'x.jsonl' })).toThrow(/FakeProxy: unknown upstream "gemini"/)
  })
})
