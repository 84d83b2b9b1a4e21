/**
 * OpenAI Realtime (GA) through the `openai` SDK's own WebSocket client (`OpenAIRealtimeWS`,
 * `openai/realtime/ws`), unchanged and on its default host (`wss://api.openai.com`, routed by the
 * network guard), against the FakeProxy on 127.0.0.1 (SPEC §9, §18): text and
 * audio responses from the scripted brain, tool calls and their results, server VAD turns with
 * the transcript the test supplies (`proxy.realtime.hear`), interruption, the API's errors, and
 * the records and matchers of HTTP.
 */
import OpenAI from 'openai'
import { OpenAIRealtimeWS } from 'openai/realtime/ws'
import { describe, expect, onTestFinished, test } from 'vitest'
import { installMatchers } from '../../matchers/index.js'
import { installNetworkGuard, routeProvidersTo, scriptedLLM, toolCall } from '../../src/index.js'
import { BYTES_PER_CHARACTER, speechFor } from '../../src/wire/pcm16.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

installMatchers(expect)

type ServerEvent = Record<string, unknown> & { type: string }

/** A connected realtime client and what the server sent it. */
async function connect(proxy: FakeProxy, model = 'gpt-realtime'): Promise<{ rt: OpenAIRealtimeWS; events: ServerEvent[]; until: (type: string, count?: number) => Promise<ServerEvent> }> {
  // The SDK always opens wss://: the client keeps its default host, which the network guard
  // routes to the fake, as the fakeProxy fixture does.
  const stopRouting = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
  onTestFinished(stopRouting)
  const client = new OpenAI({ apiKey: 'test-key' })
  const rt = new OpenAIRealtimeWS({ model }, client)
  const events: ServerEvent[] = []
  const waiters: Array<{ type: string; count: number; resolve: (event: ServerEvent) => void }> = []
  rt.socket.on('message', (data) => {
    const event = JSON.parse(String(data)) as ServerEvent
    events.push(event)
    for (const waiter of [...waiters]) {
      if (events.filter((seen) => seen.type === waiter.type).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(events.filter((seen) => seen.type === waiter.type)[waiter.count - 1]!)
      }
    }
  })
  // Errors arrive as events too; the emitter must not throw them.
  rt.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    rt.socket.once('open', () => resolve())
    rt.socket.once('error', reject)
  })
  onTestFinished(() => rt.close())
  const until = (type: string, count = 1): Promise<ServerEvent> =>
    new Promise((resolve) => {
      const seen = events.filter((event) => event.type === type)
      if (seen.length >= count) resolve(seen[count - 1]!)
      else waiters.push({ type, count, resolve })
    })
  return { rt, events, until }
}

function userText(text: string): Parameters<OpenAIRealtimeWS['send']>[0] {
  return { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } }
}

/** 100 ms of loud audio, then 100 ms of silence, as base64 PCM16. */
const SPEECH = speechFor('0123456789').toString('base64')
const SILENCE = Buffer.alloc(4800).toString('base64')

describe('OpenAI Realtime through the openai SDK (OpenAIRealtimeWS)', () => {
  test('a text response: session events, deltas joined to the scripted text, usage, one record with the conversation', async () => {
    const proxy = await startProxy({ llm: scriptedLLM({ hello: 'Hi there, friend.' }, { usage: { inputTokens: 12, outputTokens: 5 } }) })
    const { rt, events, until } = await connect(proxy)
    const created = await until('session.created')
    expect(created.session).toMatchObject({ type: 'realtime', model: 'gpt-realtime', output_modalities: ['audio'] })
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Be kind.' } })
    expect((await until('session.updated')).session).toMatchObject({ output_modalities: ['text'], instructions: 'Be kind.' })
    rt.send(userText('hello'))
    rt.send({ type: 'response.create' })
    const done = await until('response.done')
    const deltas = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta)
    expect(deltas.join('')).toBe('Hi there, friend.')
    expect(done.response).toMatchObject({ status: 'completed', usage: { input_tokens: 12, output_tokens: 5, total_tokens: 17 } })
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['conversation.item.added', 'conversation.item.done', 'response.created', 'response.output_item.added', 'response.content_part.added', 'response.output_text.done', 'response.content_part.done', 'response.output_item.done']),
    )
    const [record] = proxy.requests
    expect(record).toMatchObject({ dialect: 'openai-realtime', path: '/v1/realtime', model: 'gpt-realtime', stream: true })
    expect(record!.request.system).toBe('Be kind.')
    expect(record!.request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }])
    expect(record!.response?.content).toEqual([{ type: 'text', text: 'Hi there, friend.' }])
    expect(record!.session).toBe(proxy.sessions[0]!.id)
    expect(proxy).toHaveUsedAtMost({ totalTokens: 17 })
  })

  test('an audio response: PCM16 whose length follows the text, deterministic, with its transcript', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Bonjour!']) })
    const { rt, events, until } = await connect(proxy)
    rt.send(userText('hi'))
    rt.send({ type: 'response.create' })
    await until('response.done')
    const audio = Buffer.concat(events.filter((event) => event.type === 'response.output_audio.delta').map((event) => Buffer.from(String(event.delta), 'base64')))
    expect(audio.length).toBe('Bonjour!'.length * BYTES_PER_CHARACTER)
    expect(audio.equals(speechFor('Bonjour!'))).toBe(true)
    expect((await until('response.output_audio_transcript.done')).transcript).toBe('Bonjour!')
    expect(events.some((event) => event.type === 'response.output_audio.done')).toBe(true)
  })

  test('a tool call: arguments in deltas, the result sent back, the next response; toHaveCalledToolsInOrder reads it', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.']) })
    const { rt, events, until } = await connect(proxy)
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], tools: [{ type: 'function', name: 'get_weather', description: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] } })
    rt.send(userText('Weather in Paris?'))
    rt.send({ type: 'response.create' })
    const call = await until('response.function_call_arguments.done')
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}' })
    expect(String(call.call_id)).toMatch(/^call_/)
    expect((await until('response.done')).response).toMatchObject({ status: 'completed', output: [{ type: 'function_call', name: 'get_weather' }] })
    rt.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: String(call.call_id), output: '{"sky":"sunny"}' } })
    rt.send({ type: 'response.create' })
    await until('response.done', 2)
    expect(events.filter((event) => event.type === 'response.output_text.done').map((event) => event.text)).toEqual(['It is sunny in Paris.'])
    expect(proxy).toHaveCalledToolsInOrder(['get_weather'])
    const second = proxy.requests[1]!.request
    expect(second.tools?.map((tool) => tool.name)).toEqual(['get_weather'])
    expect(second.messages.at(-1)).toEqual({ role: 'tool', content: [{ type: 'tool-result', id: call.call_id, name: 'get_weather', result: '{"sky":"sunny"}' }] })
  })

  test('server VAD: loud audio starts speech, silence ends the turn; the response answers the transcript the test supplied', async () => {
    const proxy = await startProxy({ llm: scriptedLLM({ weather: 'Sunny all day.' }) })
    proxy.realtime.hear('what is the weather today')
    const { rt, events, until } = await connect(proxy)
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], audio: { input: { transcription: { model: 'gpt-4o-transcribe' } } } } })
    rt.send({ type: 'input_audio_buffer.append', audio: SPEECH })
    rt.send({ type: 'input_audio_buffer.append', audio: SILENCE })
    await until('response.done')
    const types = events.map((event) => event.type)
    const order = ['input_audio_buffer.speech_started', 'input_audio_buffer.speech_stopped', 'input_audio_buffer.committed', 'response.created', 'response.done']
    expect(order.map((type) => types.indexOf(type))).toEqual([...order.map((type) => types.indexOf(type))].sort((a, b) => a - b))
    expect(await until('input_audio_buffer.speech_stopped')).toMatchObject({ audio_end_ms: 200 })
    expect((await until('conversation.item.input_audio_transcription.completed')).transcript).toBe('what is the weather today')
    expect(events.filter((event) => event.type === 'response.output_text.done').map((event) => event.text)).toEqual(['Sunny all day.'])
    expect(proxy.requests[0]!.request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'what is the weather today' }] }])
  })

  test('interruption: response.cancel and speech started mid-response both end it cancelled; a late cancel is the API error', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three four five six seven eight', 'nine ten eleven twelve thirteen'], { latency: { chunkMs: 40 } }) })
    const { rt, events, until } = await connect(proxy)
    rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } })
    rt.send(userText('count'))
    rt.send({ type: 'response.create' })
    await until('response.output_text.delta')
    rt.send({ type: 'response.cancel' })
    const first = await until('response.done')
    expect(first.response).toMatchObject({ status: 'cancelled', status_details: { type: 'cancelled', reason: 'client_cancelled' }, output: [{ status: 'incomplete' }] })
    rt.send({ type: 'response.create' })
    await until('response.output_text.delta', events.filter((event) => event.type === 'response.output_text.delta').length + 1)
    rt.send({ type: 'input_audio_buffer.append', audio: SPEECH })
    const second = await until('response.done', 2)
    expect(second.response).toMatchObject({ status: 'cancelled', status_details: { reason: 'turn_detected' } })
    rt.send({ type: 'response.cancel' })
    expect((await until('error')).error).toMatchObject({ type: 'invalid_request_error', code: 'response_cancel_not_active' })
    // The cancelled answers are recorded as asked, without a response.
    expect(proxy.requests).toHaveLength(2)
  })

  test("the client's faults are the API's error events, and the session lives on", async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['fine']) })
    const { rt, until, events } = await connect(proxy)
    rt.socket.send('{not json')
    expect((await until('error')).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' })
    rt.socket.send(Buffer.from([1, 2, 3]))
    expect((await until('error', 2)).error).toMatchObject({ code: 'invalid_json' })
    rt.socket.send(JSON.stringify({ type: 'session.explode', event_id: 'evt_mine' }))
    expect((await until('error', 3)).error).toMatchObject({ code: 'invalid_value', param: 'type', event_id: 'evt_mine' })
    rt.send({ type: 'input_audio_buffer.commit' })
    expect((await until('error', 4)).error).toMatchObject({ code: 'input_audio_buffer_commit_empty' })
    rt.send({ type: 'conversation.item.retrieve', item_id: 'item_nope' })
    expect((await until('error', 5)).error).toMatchObject({ code: 'item_retrieve_invalid_item_id' })
    rt.send(userText('still there?'))
    rt.send({ type: 'response.create' })
    expect((await until('response.done')).response).toMatchObject({ status: 'completed' })
    expect(events.filter((event) => event.type === 'error')).toHaveLength(5)
    expect(proxy.sessions[0]!.events.map((event) => event.type ?? 'invalid')).toEqual(['invalid', 'invalid', 'session.explode', 'input_audio_buffer.commit', 'conversation.item.retrieve', 'conversation.item.create', 'response.create'])
  })

  test('a refusal and a planned provider error are error events and failed responses, recorded as over HTTP', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['after']) })
    const { rt, until } = await connect(proxy)
    proxy.refuse('rate_limited')
    rt.send(userText('a'))
    rt.send({ type: 'response.create' })
    expect((await until('error')).error).toMatchObject({ code: 'rate_limited' })
    expect((await until('response.done')).response).toMatchObject({ status: 'failed' })
    proxy.providerError('overloaded')
    rt.send({ type: 'response.create' })
    await until('response.done', 2)
    rt.send({ type: 'response.create' })
    expect((await until('response.done', 3)).response).toMatchObject({ status: 'completed' })
    expect(proxy.refusals.map((refusal) => refusal.code)).toEqual(['rate_limited'])
    expect(proxy.requests.map((request) => request.status)).toEqual([503, undefined])
  })
})
