/**
 * SPEC §19 on the WebSocket dialects (§18): each misbehaviour as OpenAI Realtime (through the
 * `openai` SDK's `OpenAIRealtimeWS`) and Gemini Live (through `@google/genai` `ai.live.connect`)
 * send it, Responses over WebSocket (through `@openai/agents`) as over HTTP, and seeded chaos on
 * realtime sessions — provider errors in the API's words, disconnects, malformed frames, stalls —
 * with each turn's record carrying its fault; and `proxy.fail()`'s planned transport faults on
 * realtime sessions as over HTTP.
 */
import { GoogleGenAI, Modality, type LiveServerMessage } from '@google/genai'
import { Agent, OpenAIProvider, Runner, tool } from '@openai/agents'
import OpenAI from 'openai'
import { OpenAIRealtimeWS } from 'openai/realtime/ws'
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest'
import { WebSocket as WsWebSocket } from 'ws'
import { z } from 'zod'
import { installNetworkGuard, misbehaviourKinds, routeProvidersTo, scriptedLLM, type MisbehaviourKind } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

type ServerEvent = Record<string, unknown> & { type: string }
const weather = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
const parses = (text: unknown): boolean => {
  try {
    JSON.parse(String(text))
    return true
  } catch {
    return false
  }
}

/** An `OpenAIRealtimeWS` on the proxy, what it received (unparsable frames as `{ type: '<raw>' }`), its SDK errors and its close. */
async function realtime(proxy: FakeProxy) {
  const stopRouting = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
  onTestFinished(stopRouting)
  const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'test-key' }))
  const events: ServerEvent[] = []
  const errors: Error[] = []
  let changed = (): void => {}
  rt.socket.on('message', (data) => {
    events.push(parses(data) ? (JSON.parse(String(data)) as ServerEvent) : { type: '<raw>', raw: String(data) })
    changed()
  })
  rt.on('error', (error) => errors.push(error))
  const closed = new Promise<number>((resolve) => rt.socket.once('close', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    rt.socket.once('open', () => resolve())
    rt.socket.once('error', reject)
  })
  onTestFinished(() => rt.close())
  const until = (test: (seen: ServerEvent[]) => boolean): Promise<void> =>
    new Promise((resolve) => {
      changed = () => test(events) && resolve()
      changed()
    })
  const ask = async (text: string): Promise<ServerEvent> => {
    const before = events.filter((event) => event.type === 'response.done').length
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })
    rt.send({ type: 'response.create' })
    await until((seen) => seen.filter((event) => event.type === 'response.done').length > before)
    return events.filter((event) => event.type === 'response.done').at(-1)!
  }
  rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], tools: [{ type: 'function', name: 'get_weather', parameters: weather }] } })
  return { rt, events, errors, closed, until, ask }
}

describe('OpenAI Realtime (OpenAIRealtimeWS): each kind as the Realtime API sends it', () => {
  test.each(misbehaviourKinds)('%s', async (kind) => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'Fine.') })
    proxy.misbehave(kind)
    const { events, ask } = await realtime(proxy)
    const done = await ask('Weather in Paris?')
    const response = done.response as { status: string; status_details: { reason?: string } | null; output: Array<Record<string, unknown>> }
    const text = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join('')
    const args = events.filter((event) => event.type === 'response.function_call_arguments.done')
    expect(proxy.requests[0].fault).toEqual({ kind, source: 'planned' })
    switch (kind) {
      case 'invalid_tool_args':
        expect(args).toHaveLength(1)
        expect(args[0]).toMatchObject({ name: 'get_weather' })
        expect(parses(args[0].arguments)).toBe(false)
        break
      case 'schema_violation':
        expect(JSON.parse(String(args[0].arguments))).toEqual({ city: 12345 })
        break
      case 'unknown_tool':
        expect(args[0]).toMatchObject({ name: 'search_web', arguments: '{}' })
        break
      case 'duplicate_tool_ids':
        expect(response.output.map((item) => item.type)).toEqual(['function_call', 'function_call'])
        expect(response.output[0].call_id).toBe(response.output[1].call_id)
        break
      case 'truncated':
        expect(response).toMatchObject({ status: 'incomplete', status_details: { type: 'incomplete', reason: 'max_output_tokens' } })
        expect(text).toMatch(/depends on$/)
        break
      case 'content_filter':
        expect(response).toMatchObject({ status: 'incomplete', status_details: { type: 'incomplete', reason: 'content_filter' } })
        break
      case 'refusal':
        // No refusal part in Realtime: the refusal is said.
        expect(response.status).toBe('completed')
        expect(text).toBe("I'm sorry, but I can't help with that request.")
        break
      case 'empty':
      case 'reasoning_only':
        expect(response).toMatchObject({ status: 'completed', output: [] })
        break
      case 'wrong_language':
        expect(text).toMatch(/^Voici/)
        break
      case 'off_format':
        expect(text).toMatch(/^Sure!/)
        break
    }
    // The script did not move: the next turn gets its answer.
    await ask('again')
    expect(events.filter((event) => event.type === 'response.output_text.done').at(-1)).toMatchObject({ text: 'Fine.' })
  })
})

describe('seeded chaos on Realtime sessions', () => {
  test('a provider error: the error event in the API words, response.done failed; the record carries the fault', async () => {
    const proxy = await startProxy({ chaos: { seed: 5, rate: 1, kinds: ['rate_limit'] } })
    const { events, errors, ask } = await realtime(proxy)
    const done = await ask('hi')
    expect(done.response).toMatchObject({ status: 'failed' })
    expect(events.find((event) => event.type === 'error')).toMatchObject({ error: { type: 'requests', code: 'rate_limit_exceeded' } })
    expect(errors.length).toBeGreaterThan(0)
    expect(proxy.requests[0]).toMatchObject({ status: 429, fault: { kind: 'rate_limit', source: 'chaos', seed: 5, request: 1 } })
  })

  test('disconnect: one event, then the connection is cut', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'one two three'), chaos: { seed: 1, rate: 1, kinds: ['disconnect'] } })
    const { events, closed, rt } = await realtime(proxy)
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } })
    rt.send({ type: 'response.create' })
    expect(await closed).toBe(1006)
    expect(events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta)).toEqual(['one '])
    expect(events.some((event) => event.type === 'response.done')).toBe(false)
    expect(proxy.requests[0].fault).toMatchObject({ kind: 'disconnect', source: 'chaos' })
  })

  test("malformed: a frame that is not JSON — the SDK's 'error' event says it could not parse it — then the cut", async () => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'one two three'), chaos: { seed: 1, rate: 1, kinds: ['malformed'] } })
    const { events, errors, closed, rt } = await realtime(proxy)
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } })
    rt.send({ type: 'response.create' })
    await closed
    expect(events.some((event) => event.type === '<raw>')).toBe(true)
    expect(errors.map((error) => error.message)).toContain('could not parse websocket event')
  })

  test('stall: one event, then nothing until the client cancels', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'one two three'), chaos: { seed: 1, rate: 1, kinds: ['stall'] } })
    const { events, rt, until } = await realtime(proxy)
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } })
    rt.send({ type: 'response.create' })
    await until((seen) => seen.some((event) => event.type === 'response.output_text.delta'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(events.some((event) => event.type === 'response.done')).toBe(false)
    rt.send({ type: 'response.cancel' })
    await until((seen) => seen.some((event) => event.type === 'response.done'))
    expect(events.find((event) => event.type === 'response.done')?.response).toMatchObject({ status: 'cancelled' })
  })
})

describe('proxy.fail() on Realtime sessions: the planned transport faults of HTTP', () => {
  test('disconnect after two events: two deltas, then the cut; the fault is used once', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'one two three four') })
    proxy.fail({ kind: 'disconnect', afterChunks: 2 })
    const { events, closed, rt } = await realtime(proxy)
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } })
    rt.send({ type: 'response.create' })
    expect(await closed).toBe(1006)
    expect(events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta)).toEqual(['one ', 'two '])
    expect(events.some((event) => event.type === 'response.done')).toBe(false)
    // A planned fault is no model fault: as over HTTP, the record carries none.
    expect(proxy.requests[0].fault).toBeUndefined()
    const again = await realtime(proxy)
    const done = await again.ask('hi')
    expect(done.response).toMatchObject({ status: 'completed' })
  })

  test('stall with afterChunks 0: nothing at all until the client cancels, and the brain was never asked', async () => {
    let asked = 0
    const proxy = await startProxy({ llm: scriptedLLM(() => `answer ${++asked}`) })
    proxy.fail({ kind: 'stall', afterChunks: 0 })
    const { events, rt, until, ask } = await realtime(proxy)
    rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } })
    rt.send({ type: 'response.create' })
    await until((seen) => seen.some((event) => event.type === 'response.created'))
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(events.some((event) => event.type === 'response.output_text.delta')).toBe(false)
    rt.send({ type: 'response.cancel' })
    await until((seen) => seen.some((event) => event.type === 'response.done'))
    expect(events.find((event) => event.type === 'response.done')?.response).toMatchObject({ status: 'cancelled' })
    await ask('again')
    expect(asked).toBe(1)
    expect(events.filter((event) => event.type === 'response.output_text.done').at(-1)).toMatchObject({ text: 'answer 1' })
  })
})

/** A Gemini Live session through @google/genai and the messages it got, until turnComplete (or the close). */
async function liveTurn(proxy: FakeProxy, text: string): Promise<{ messages: LiveServerMessage[]; closed: Promise<number> }> {
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: proxy.url } })
  const messages: LiveServerMessage[] = []
  let complete!: () => void
  const completed = new Promise<void>((resolve) => (complete = resolve))
  let onClose!: (code: number) => void
  const closed = new Promise<number>((resolve) => (onClose = resolve))
  const session = await ai.live.connect({
    model: 'gemini-live-2.5-flash',
    config: { responseModalities: [Modality.TEXT], tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: weather }] }] },
    callbacks: {
      onmessage: (message) => {
        messages.push(message)
        if (message.serverContent?.turnComplete || message.toolCall) complete()
      },
      onerror: () => {},
      onclose: (event) => {
        onClose(event.code)
        complete()
      },
    },
  })
  onTestFinished(() => session.close())
  session.sendClientContent({ turns: [{ role: 'user', parts: [{ text }] }], turnComplete: true })
  await completed
  // Duplicate calls come as two toolCall messages: give the second a moment.
  await new Promise((resolve) => setTimeout(resolve, 30))
  return { messages, closed }
}

/**
 * One Live turn read with a raw `ws` client (@google/genai rejects unhandled on a frame that is
 * not JSON): every frame until the close, and its code.
 */
async function rawLiveTurn(proxy: FakeProxy): Promise<{ frames: string[]; code: number }> {
  const ws = new WsWebSocket(`${proxy.url.replace(/^http/, 'ws')}/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k`)
  const frames: string[] = []
  ws.on('message', (data) => frames.push(String(data)))
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  await new Promise((resolve) => ws.once('open', resolve))
  ws.send(JSON.stringify({ setup: { model: 'models/gemini-live-2.5-flash', generationConfig: { responseModalities: ['TEXT'] } } }))
  ws.send(JSON.stringify({ clientContent: { turns: [{ role: 'user', parts: [{ text: 'hi' }] }], turnComplete: true } }))
  return { frames, code: await closed }
}

describe('Gemini Live (@google/genai): each kind as Gemini Live sends it', () => {
  test.each(misbehaviourKinds)('%s', async (kind) => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'Fine.') })
    proxy.misbehave(kind)
    const { messages } = await liveTurn(proxy, 'Weather in Paris?')
    const calls = messages.flatMap((message) => message.toolCall?.functionCalls ?? [])
    const parts = messages.flatMap((message) => message.serverContent?.modelTurn?.parts ?? [])
    const text = parts.filter((part) => !part.thought).map((part) => part.text ?? '').join('')
    const end = messages.find((message) => message.serverContent?.turnComplete)?.serverContent
    expect(proxy.requests[0].fault).toEqual({ kind, source: 'planned' })
    switch (kind) {
      case 'invalid_tool_args':
        // Never sent: the turn ends saying the call was malformed.
        expect(calls).toEqual([])
        expect(end?.turnCompleteReason).toBe('MALFORMED_FUNCTION_CALL')
        break
      case 'schema_violation':
        expect(calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 12345 } })])
        break
      case 'unknown_tool':
        expect(calls.map((call) => call.name)).toEqual(['search_web'])
        break
      case 'duplicate_tool_ids':
        expect(calls).toHaveLength(2)
        expect(calls[0].id).toBe(calls[1].id)
        break
      case 'truncated':
        expect(text).toMatch(/depends on$/)
        expect(end?.turnCompleteReason).toBeUndefined()
        break
      case 'refusal':
      case 'content_filter':
        expect(parts).toEqual([])
        expect(end?.turnCompleteReason).toBe('RESPONSE_REJECTED')
        break
      case 'empty':
        expect(parts).toEqual([])
        expect(end).toMatchObject({ turnComplete: true })
        break
      case 'reasoning_only':
        expect(parts.length).toBeGreaterThan(0)
        expect(parts.every((part) => part.thought === true)).toBe(true)
        expect(text).toBe('')
        break
      case 'wrong_language':
        expect(text).toMatch(/^Voici/)
        break
      case 'off_format':
        expect(text).toMatch(/^Sure!/)
        break
    }
  })

  test('chaos on Live: a provider error closes the session with its message; disconnect cuts it after one message', async () => {
    const failing = await startProxy({ chaos: { seed: 2, rate: 1, kinds: ['server_error'] } })
    const failed = await liveTurn(failing, 'hi')
    expect(await failed.closed).toBe(1011)
    expect(failing.requests[0]).toMatchObject({ status: 500, fault: { kind: 'server_error', source: 'chaos', seed: 2 } })
    const cut = await startProxy({ llm: scriptedLLM(() => 'one two three'), chaos: { seed: 2, rate: 1, kinds: ['disconnect'] } })
    const dropped = await liveTurn(cut, 'hi')
    expect(await dropped.closed).toBe(1006)
    expect(dropped.messages.flatMap((message) => message.serverContent?.modelTurn?.parts ?? []).map((part) => part.text)).toEqual(['one '])
  })

  test('proxy.fail() on Live: malformed after one message, then the cut', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'one two three') })
    proxy.fail({ kind: 'malformed' })
    const { frames, code } = await rawLiveTurn(proxy)
    expect(code).toBe(1006)
    expect(frames.filter((frame) => !parses(frame))).toHaveLength(1)
    expect(frames.filter((frame) => parses(frame) && frame.includes('"text":'))).toHaveLength(1)
  })

  test('chaos on Live: malformed sends a frame that is not JSON, then cuts (read with a raw ws client: @google/genai rejects unhandled on it)', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'one two three'), chaos: { seed: 2, rate: 1, kinds: ['malformed'] } })
    const { frames, code } = await rawLiveTurn(proxy)
    expect(code).toBe(1006)
    expect(frames.filter((frame) => !parses(frame))).toHaveLength(1)
    expect(frames.filter(parses).some((frame) => frame.includes('"text":"one "'))).toBe(true)
  })
})

describe('Responses over WebSocket (@openai/agents): misbehaviour and chaos as over HTTP', () => {
  const globals = globalThis as { WebSocket?: unknown }
  const had = 'WebSocket' in globals
  const own = globals.WebSocket
  beforeAll(() => {
    if (!had) globals.WebSocket = WsWebSocket
  })
  afterAll(() => {
    if (!had) delete globals.WebSocket
    else globals.WebSocket = own
  })

  test('invalid_tool_args: the tool does not run, the SDK answers the model with its parse error; unknown_tool fails the run', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(() => 'It is sunny.') })
    const provider = new OpenAIProvider({ apiKey: 'k', baseURL: `${proxy.url}/v1`, useResponses: true, useResponsesWebSocket: true })
    onTestFinished(() => provider.close?.())
    const runner = new Runner({ modelProvider: provider, tracingDisabled: true })
    let runs = 0
    const getWeather = tool({ name: 'get_weather', description: 'Weather', parameters: z.object({ city: z.string() }), execute: async () => (runs++, 'sunny') })
    const agent = new Agent({ name: 'Forecaster', instructions: 'Be brief.', model: 'gpt-4o', tools: [getWeather] })
    proxy.misbehave('invalid_tool_args')
    expect((await runner.run(agent, 'Weather?')).finalOutput).toBe('It is sunny.')
    expect(runs).toBe(0)
    expect(proxy.requests[0].fault).toEqual({ kind: 'invalid_tool_args', source: 'planned' })
    proxy.misbehave('unknown_tool')
    await expect(runner.run(agent, 'Weather?')).rejects.toThrow('Tool search_web not found in agent Forecaster.')
    proxy.chaos({ seed: 3, rate: 1, kinds: ['empty' as MisbehaviourKind] })
    await runner.run(agent, 'Weather?').catch(() => undefined)
    expect(proxy.requests.at(-1)?.fault).toMatchObject({ kind: 'empty', source: 'chaos', seed: 3 })
  })
})
