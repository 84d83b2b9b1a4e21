// The machinery behind fakeProxyOptions.transcript, in process: record a streamed turn through a
// FakeProxy, replay it, miss it, and the clear errors for what cannot work.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeEach, expect, onTestFinished, test, vi } from 'vitest'
import { checkTranscriptOptions, openTestTranscript, transcriptPath, unusedTranscripts } from '../../fixtures/per-test-transcript.js'
import Anthropic from '@anthropic-ai/sdk'
import { FakeProxy, scriptedLLM, toolCall } from '../../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-transcripts-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
// These tests record in mode 'auto', which under CI replays only (transcript-ci.test.ts covers that).
beforeEach(() => {
  vi.stubEnv('CI', '')
})

async function streamedAnswer(proxy: FakeProxy, question: string): Promise<string> {
  const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const stream = await client.chat.completions.create({ model: 'gpt-5', stream: true, messages: [{ role: 'user', content: question }] })
  let text = ''
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? ''
  return text
}

test('records a streamed turn, replays it, and fails a miss with the nearest turn', async () => {
  const options = { dir, upstream: scriptedLLM(['Streaming works fine.']) }
  const path = transcriptPath(options, '/project/test/chat.test.ts', 'chat > streams an answer')
  expect(path).toBe(join(dir, 'chat.test.ts', 'chat-streams-an-answer.jsonl'))
  await using proxy = await new FakeProxy().start()

  const recording = openTestTranscript(options, path)
  expect(recording.mode).toBe('record')
  proxy.use(recording.brain)
  expect(await streamedAnswer(proxy, 'Does streaming work?')).toBe('Streaming works fine.')
  recording.finish()
  expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(1)

  const replay = openTestTranscript({ dir }, path)
  expect(replay.mode).toBe('replay')
  proxy.use(replay.brain)
  expect(await streamedAnswer(proxy, 'Does streaming work?')).toBe('Streaming works fine.')
  expect(() => replay.finish()).not.toThrow()

  const missed = openTestTranscript({ dir }, path)
  proxy.use(missed.brain)
  await expect(streamedAnswer(proxy, 'Does caching work?')).rejects.toThrow()
  expect(() => missed.finish()).toThrow(/replay miss at call 1: .*nearest recorded turn: 1 of 1 \(line 1\)\.\n- recorded\n\+ received\n- user: Does streaming work\?\n\+ user: Does caching work\?/)

  expect(unusedTranscripts({ dir }, '/project/test/chat.test.ts', new Set([path]))).toEqual([])
  expect(unusedTranscripts({ dir }, '/project/test/chat.test.ts', new Set())).toEqual([path])
})

test('what cannot work says so', () => {
  // Outside CI (under CI 'auto' never records: transcript-ci.test.ts).
  vi.stubEnv('CI', '')
  onTestFinished(() => void vi.unstubAllEnvs())
  const missing = join(dir, 'nothing', 'here.jsonl')
  expect(() => openTestTranscript({ mode: 'replay' }, missing)).toThrow(`transcript mode 'replay' but there is no ${missing}`)
  expect(() => openTestTranscript({}, missing)).toThrow(`no transcript at ${missing} to replay and no upstream to record one from`)
  expect(existsSync(missing)).toBe(false)
  expect(() => checkTranscriptOptions('fakeProxyOptions', { mode: 'always' })).toThrow(/option mode must be 'replay', 'record' or 'auto', got "always"/)
  expect(() => checkTranscriptOptions('fakeProxyOptions', { upstream: 'api.openai.com' })).toThrow(
    'option upstream must be an LLM ({ generate, stream }), the http(s) URL of an OpenAI-compatible origin such as "http://127.0.0.1:4000", or { openai: origin } or { anthropic: origin }, got "api.openai.com"',
  )
  expect(() => checkTranscriptOptions('fakeProxyOptions', { upstream: 'http://127.0.0.1:4000/?key=1' })).toThrow(/option upstream must be an LLM/)
  expect(() => checkTranscriptOptions('fakeProxyOptions', { upstream: { generate() {} } })).toThrow(/option upstream must be an LLM/)
  expect(() => checkTranscriptOptions('fakeProxyOptions', { upstream: { anthropic: 'https://api.anthropic.com', openai: 'https://api.openai.com' } })).toThrow(/option upstream must be/)
  expect(() => checkTranscriptOptions('fakeProxyOptions', { upstream: { gemini: 'https://generativelanguage.googleapis.com' } })).toThrow(/option upstream must be/)
  expect(() => checkTranscriptOptions('fakeProxyOptions', { upstream: { anthropic: 'localhost:4000' } })).toThrow(/option upstream must be/)
  expect(checkTranscriptOptions('fakeProxyOptions', { upstream: 'https://api.openai.com' }).upstream).toBe('https://api.openai.com')
  expect(checkTranscriptOptions('fakeProxyOptions', { upstream: { anthropic: 'https://api.anthropic.com' } }).upstream).toEqual({ anthropic: 'https://api.anthropic.com' })
  expect(() => checkTranscriptOptions('fakeProxyOptions', 'auto')).toThrow(/option transcript must be \{ dir\?, mode\?, upstream\?, redact\?, normalize\?, timings\?, replaySpeed\? \}/)
})

test('upstream as a URL: records from a second FakeProxy over HTTP, tool calls and all, then replays without it', async () => {
  await using upstreamProxy = await new FakeProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Oslo' }), 'Oslo: snow, -3 °C.']) }).start()
  await using proxy = await new FakeProxy().start()
  const options = { dir, upstream: upstreamProxy.url }
  const path = transcriptPath(options, '/project/test/weather.test.ts', 'asks the weather')
  // The client speaks Anthropic to the fake; the fake asks the origin in Chat Completions.
  const client = new Anthropic({ apiKey: 'k', baseURL: proxy.url, maxRetries: 0 })
  const tools = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }]
  const converse = async () => {
    const first = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 200, system: 'Be brief.', tools, messages: [{ role: 'user', content: 'Weather in Oslo?' }] })
    const call = first.content.find((block) => block.type === 'tool_use')
    if (call?.type !== 'tool_use') throw new Error(`no tool call in ${JSON.stringify(first.content)}`)
    const second = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 200,
      system: 'Be brief.',
      tools,
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'snow, -3' }] },
      ],
    })
    return { args: call.input, text: second.content.map((block) => (block.type === 'text' ? block.text : '')).join('') }
  }

  const recording = openTestTranscript(options, path)
  expect(recording.mode).toBe('record')
  proxy.use(recording.brain)
  expect(await converse()).toEqual({ args: { city: 'Oslo' }, text: 'Oslo: snow, -3 °C.' })
  recording.finish()
  // What the origin was asked, in its own dialect: the system prompt, the tool, the tool result.
  const asked = upstreamProxy.requests
  expect(asked.map((request) => `${request.method} ${request.path} ${request.dialect}`)).toEqual(['POST /v1/chat/completions openai-chat', 'POST /v1/chat/completions openai-chat'])
  expect(asked[0].request).toMatchObject({ model: 'claude-sonnet-4-6', system: 'Be brief.', maxTokens: 200, tools: [{ name: 'get_weather', description: 'Weather of a city' }] })
  expect(asked[1].request?.messages.at(-1)?.content).toEqual([expect.objectContaining({ type: 'tool-result', result: 'snow, -3' })])
  expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2)

  await upstreamProxy.close()
  const replay = openTestTranscript({ dir }, path)
  expect(replay.mode).toBe('replay')
  proxy.use(replay.brain)
  expect(await converse()).toEqual({ args: { city: 'Oslo' }, text: 'Oslo: snow, -3 °C.' })
  expect(() => replay.finish()).not.toThrow()
})

test('upstream as { anthropic: origin }: the tool loop of an OpenAI client recorded through the Messages API, then replayed', async () => {
  await using upstreamProxy = await new FakeProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Rome' }), 'Rome: sunny.']) }).start()
  await using proxy = await new FakeProxy().start()
  const options = { dir, upstream: { anthropic: upstreamProxy.url } }
  const path = transcriptPath(options, '/project/test/weather.test.ts', 'asks through Anthropic')
  const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
  const converse = async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in Rome?' }]
    const first = await client.chat.completions.create({ model: 'claude-sonnet-4-6', tools, tool_choice: 'required', messages })
    const call = first.choices[0].message.tool_calls?.[0]
    if (call?.type !== 'function') throw new Error(`no tool call in ${JSON.stringify(first.choices[0].message)}`)
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'sunny' })
    const second = await client.chat.completions.create({ model: 'claude-sonnet-4-6', tools, messages })
    return { args: JSON.parse(call.function.arguments), text: second.choices[0].message.content }
  }

  const recording = openTestTranscript(options, path)
  proxy.use(recording.brain)
  expect(await converse()).toEqual({ args: { city: 'Rome' }, text: 'Rome: sunny.' })
  recording.finish()
  const asked = upstreamProxy.requests
  expect(asked.map((request) => `${request.path} ${request.dialect}`)).toEqual(['/v1/messages anthropic-messages', '/v1/messages anthropic-messages'])
  expect(asked[0].request).toMatchObject({ system: 'Be brief.', toolChoice: 'required', maxTokens: 4096, tools: [{ name: 'get_weather' }] })
  // The tool result went back in a user turn, after the assistant's tool_use.
  expect(asked[1].request?.messages.map((message) => message.content.map((part) => part.type).join('+'))).toEqual(['text', 'tool-call', 'tool-result'])

  await upstreamProxy.close()
  const replay = openTestTranscript({ dir }, path)
  proxy.use(replay.brain)
  expect(await converse()).toEqual({ args: { city: 'Rome' }, text: 'Rome: sunny.' })
  expect(() => replay.finish()).not.toThrow()
})

test('upstream as a URL: an origin that is down or answers an error fails the call, naming the origin', async () => {
  const down = await new FakeProxy().start()
  const url = down.url
  await down.close()
  await using proxy = await new FakeProxy().start()
  const recording = openTestTranscript({ dir, upstream: url }, join(dir, 'down', 'x.jsonl'))
  proxy.use(recording.brain)
  await expect(recording.brain.generate({ model: 'gpt-5', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })).rejects.toThrow(
    `[agent-doubles] transcript upstream ${url}/v1/chat/completions is unreachable`,
  )
  await using refusing = await new FakeProxy().start()
  refusing.providerError('rate_limit')
  const limited = openTestTranscript({ dir, upstream: refusing.url }, join(dir, 'down', 'y.jsonl'))
  await expect(limited.brain.generate({ model: 'gpt-5', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })).rejects.toThrow(
    `[agent-doubles] transcript upstream ${refusing.url}/v1/chat/completions answered 429`,
  )
  limited.finish()
  recording.finish()
  expect(existsSync(join(dir, 'down'))).toBe(false)
})
