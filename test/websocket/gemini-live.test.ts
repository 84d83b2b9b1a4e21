/**
 * Gemini Live through `@google/genai` `ai.live.connect`, unchanged, against the FakeProxy
 * (SPEC §18): setup, text turns, a tool call and its response, spoken answers as PCM16 inline
 * data with their transcription, audio turns heard as the test's transcript, usage, records,
 * and a bad message closing the connection as the API closes it.
 */
import { GoogleGenAI, Modality, type LiveServerMessage, type Session } from '@google/genai'
import { describe, expect, onTestFinished, test } from 'vitest'
import { installMatchers } from '../../matchers/index.js'
import { installNetworkGuard, routeProvidersTo, scriptedLLM, toolCall } from '../../src/index.js'
import { BYTES_PER_CHARACTER, speechFor } from '../../src/wire/pcm16.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { WebSocket as WsWebSocket } from 'ws'
import { startProxy } from '../proxy/helpers.js'

installMatchers(expect)

interface Live {
  session: Session
  messages: LiveServerMessage[]
  /** Resolves once `count` messages satisfy `test`. */
  until(test: (message: LiveServerMessage) => boolean, count?: number): Promise<void>
  closed: Promise<{ code: number; reason: string }>
}

async function connect(ai: GoogleGenAI, config: Parameters<GoogleGenAI['live']['connect']>[0]['config'] = {}): Promise<Live> {
  const messages: LiveServerMessage[] = []
  const waiters: Array<{ test: (message: LiveServerMessage) => boolean; count: number; resolve: () => void }> = []
  const check = (): void => {
    for (const waiter of [...waiters]) {
      if (messages.filter(waiter.test).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }
  }
  let onClose!: (event: { code: number; reason: string }) => void
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClose = resolve))
  const session = await ai.live.connect({
    model: 'gemini-live-2.5-flash',
    config,
    callbacks: {
      onmessage: (message) => {
        messages.push(message)
        check()
      },
      onerror: () => {},
      onclose: (event) => onClose({ code: event.code, reason: String(event.reason) }),
    },
  })
  onTestFinished(() => session.close())
  const until = (test: (message: LiveServerMessage) => boolean, count = 1): Promise<void> =>
    new Promise((resolve) => {
      waiters.push({ test, count, resolve })
      check()
    })
  return { session, messages, until, closed }
}

function genaiFor(proxy: FakeProxy): GoogleGenAI {
  return new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: proxy.url } })
}

const turnComplete = (message: LiveServerMessage): boolean => message.serverContent?.turnComplete === true

describe('Gemini Live through @google/genai ai.live.connect', () => {
  test('a text turn: setup, the scripted answer as modelTurn parts, turnComplete with usage, one record', async () => {
    const proxy = await startProxy({ llm: scriptedLLM({ hello: 'Hello from Gemini Live.' }, { usage: { inputTokens: 6, outputTokens: 4 } }) })
    const live = await connect(genaiFor(proxy), { responseModalities: [Modality.TEXT], systemInstruction: 'Be brief.' })
    live.session.sendClientContent({ turns: [{ role: 'user', parts: [{ text: 'hello there' }] }], turnComplete: true })
    await live.until(turnComplete)
    const text = live.messages.flatMap((message) => message.serverContent?.modelTurn?.parts ?? []).map((part) => part.text).join('')
    expect(text).toBe('Hello from Gemini Live.')
    expect(live.messages.find(turnComplete)?.usageMetadata).toMatchObject({ promptTokenCount: 6, responseTokenCount: 4, totalTokenCount: 10 })
    const [record] = proxy.requests
    expect(record).toMatchObject({ dialect: 'gemini-live', model: 'gemini-live-2.5-flash', stream: true })
    expect(record!.request.system).toBe('Be brief.')
    expect(record!.request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello there' }] }])
    expect(proxy.sessions[0]).toMatchObject({ transport: 'gemini-live', model: 'gemini-live-2.5-flash' })
    expect(proxy.sessions[0]!.events.map((event) => Object.keys(event)[0])).toEqual(['setup', 'clientContent'])
  })

  test('a tool call: toolCall with its id, the toolResponse sent back, the answer with the result; the matchers read it', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Rome' }), 'Rome is sunny.']) })
    const live = await connect(genaiFor(proxy), {
      responseModalities: [Modality.TEXT],
      tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }],
    })
    live.session.sendClientContent({ turns: 'Weather in Rome?', turnComplete: true })
    await live.until((message) => message.toolCall !== undefined)
    const call = live.messages.find((message) => message.toolCall)!.toolCall!.functionCalls![0]!
    expect(call).toMatchObject({ name: 'get_weather', args: { city: 'Rome' } })
    live.session.sendToolResponse({ functionResponses: [{ id: call.id, name: 'get_weather', response: { output: 'sunny' } }] })
    await live.until(turnComplete)
    expect(live.messages.flatMap((message) => message.serverContent?.modelTurn?.parts ?? []).map((part) => part.text).join('')).toBe('Rome is sunny.')
    expect(proxy).toHaveCalledToolsInOrder(['get_weather'])
    expect(proxy.requests[0]!.request.tools?.map((tool) => tool.name)).toEqual(['get_weather'])
    expect(proxy.requests[1]!.request.messages.at(-1)?.content[0]).toMatchObject({ type: 'tool-result', name: 'get_weather', result: 'sunny' })
  })

  test('audio: a spoken turn is heard as the transcript the test supplied; the answer is PCM16 inline data with its transcription', async () => {
    const proxy = await startProxy({ llm: scriptedLLM({ joke: 'Knock knock.' }) })
    proxy.realtime.hear('tell me a joke')
    const live = await connect(genaiFor(proxy), { responseModalities: [Modality.AUDIO], inputAudioTranscription: {}, outputAudioTranscription: {} })
    live.session.sendRealtimeInput({ audio: { data: speechFor('abcdefghij').toString('base64'), mimeType: 'audio/pcm;rate=16000' } })
    live.session.sendRealtimeInput({ audio: { data: Buffer.alloc(3200).toString('base64'), mimeType: 'audio/pcm;rate=16000' } })
    await live.until(turnComplete)
    expect(live.messages.find((message) => message.serverContent?.inputTranscription)?.serverContent?.inputTranscription?.text).toBe('tell me a joke')
    const audio = Buffer.concat(live.messages.flatMap((message) => message.serverContent?.modelTurn?.parts ?? []).map((part) => Buffer.from(part.inlineData?.data ?? '', 'base64')))
    expect(audio.length).toBe('Knock knock.'.length * BYTES_PER_CHARACTER)
    expect(live.messages.map((message) => message.serverContent?.outputTranscription?.text ?? '').join('')).toBe('Knock knock.')
    expect(proxy.requests[0]!.request.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'tell me a joke' }] })
  })

  test('on its default host (generativelanguage.googleapis.com) through the network guard; a bad message closes with 1007', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Routed.']) })
    const stopRouting = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
    onTestFinished(stopRouting)
    const live = await connect(new GoogleGenAI({ apiKey: 'test-key' }), { responseModalities: [Modality.TEXT] })
    live.session.sendRealtimeInput({ text: 'hi' })
    await live.until(turnComplete)
    expect(live.messages.flatMap((message) => message.serverContent?.modelTurn?.parts ?? []).map((part) => part.text).join('')).toBe('Routed.')
    ;(live.session as unknown as { conn: { send: (text: string) => void } }).conn.send(JSON.stringify({ bogus: {} }))
    const closed = await live.closed
    expect(closed.code).toBe(1007)
    expect(closed.reason).toContain('Unknown name "bogus"')
    expect(proxy.sessions[0]).toMatchObject({ open: false, closeCode: 1007 })
  })

  test('a refused upgrade answers in the dialect of its path: Gemini Live\'s in Google\'s error shape, the Realtime API\'s in OpenAI\'s', async () => {
    const proxy = await startProxy()
    const refusal = (path: string): Promise<{ status: number; body: unknown }> =>
      new Promise((resolve, reject) => {
        const ws = new WsWebSocket(`${proxy.url.replace('http', 'ws')}${path}`)
        ws.once('error', () => {})
        ws.once('unexpected-response', (_req, res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => (text += chunk))
          res.once('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }))
          res.once('error', reject)
        })
      })
    // An API version the Live API does not have, as `@google/genai` builds its path.
    const live = await refusal('/ws/google.ai.generativelanguage.v2.GenerativeService.BidiGenerateContent?key=test-key')
    expect(live).toEqual({ status: 404, body: { error: { code: 404, status: 'NOT_FOUND', message: expect.stringContaining('no WebSocket route for /ws/google.ai.generativelanguage.v2') } } })
    // The fake recorded the turned-away upgrade, with its status.
    expect(proxy.requests.some((request) => request.path.includes('v2.GenerativeService.BidiGenerateContent') && request.status === 404)).toBe(true)
    const realtime = await refusal('/v1/realtime/calls')
    expect(realtime).toEqual({ status: 404, body: { error: expect.objectContaining({ type: 'not_found_error', message: expect.stringContaining('no WebSocket route for /v1/realtime/calls') }) } })
  })
})
