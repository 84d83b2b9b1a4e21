// SPEC §18 in Jest: the WebSocket transports through useFakeProxy with the real clients — the
// `openai` SDK's OpenAIRealtimeWS (a text answer, then a tool call and its result) and
// @google/genai's ai.live.connect (a text turn and a tool call) — with the matchers reading the
// realtime records, and nothing left open after the file (the run uses --detectOpenHandles).
const OpenAI = require('openai')
const { OpenAIRealtimeWS } = require('openai/realtime/ws')
const { GoogleGenAI, Modality } = require('@google/genai')
const { installNetworkGuard, routeProvidersTo, toolCall } = require('agent-doubles')
const { useFakeProxy, scriptedLLM } = require('agent-doubles/jest')

const proxy = useFakeProxy()

/** A Realtime client on its default host (wss://api.openai.com), routed to the fake by the network guard. */
async function realtime() {
  const stopRouting = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
  // The SDK always opens wss:// on its base URL: the fixture's OPENAI_BASE_URL (plain http) is
  // overridden with the default host, which the guard routes to the fake.
  const rt = new OpenAIRealtimeWS({ model: 'gpt-realtime' }, new OpenAI({ apiKey: 'test-key', baseURL: 'https://api.openai.com/v1' }))
  const events = []
  const waiters = []
  rt.socket.on('message', (data) => {
    const event = JSON.parse(String(data))
    events.push(event)
    for (const waiter of [...waiters]) {
      if (events.filter((seen) => seen.type === waiter.type).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }
  })
  rt.on('error', () => {})
  await new Promise((resolve, reject) => {
    rt.socket.once('open', resolve)
    rt.socket.once('error', reject)
  })
  const until = (type, count = 1) =>
    new Promise((resolve) => {
      if (events.filter((event) => event.type === type).length >= count) resolve()
      else waiters.push({ type, count, resolve })
    })
  const close = async () => {
    const closed = new Promise((resolve) => rt.socket.once('close', resolve))
    rt.close()
    await closed
    stopRouting()
  }
  return { rt, events, until, close }
}

const userText = (text) => ({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })

test('OpenAIRealtimeWS: a scripted text answer, one record, the matchers read it', async () => {
  proxy.use(scriptedLLM({ hello: 'Hello from the fake.' }))
  const { rt, events, until, close } = await realtime()
  rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } })
  rt.send(userText('hello there'))
  rt.send({ type: 'response.create' })
  await until('response.done')
  await close()
  expect(events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join('')).toBe('Hello from the fake.')
  expect(events.find((event) => event.type === 'response.done').response.status).toBe('completed')
  expect(proxy).toHaveReceivedRequests(1)
  expect(proxy).toHaveBeenCalledWithTask('hello there')
  expect(proxy.requests[0]).toMatchObject({ dialect: 'openai-realtime', path: '/v1/realtime', session: proxy.sessions[0].id })
  expect(proxy.sessions[0].events.map((event) => event.type)).toEqual(['session.update', 'conversation.item.create', 'response.create'])
})

test('OpenAIRealtimeWS: a tool call, its output sent back, the answer that uses it', async () => {
  proxy.use(scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.']))
  const { rt, events, until, close } = await realtime()
  rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] } })
  rt.send(userText('weather in Paris?'))
  rt.send({ type: 'response.create' })
  await until('response.done')
  const call = events.find((event) => event.type === 'response.function_call_arguments.done')
  expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' })
  rt.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' } })
  rt.send({ type: 'response.create' })
  await until('response.done', 2)
  await close()
  expect(events.filter((event) => event.type === 'response.output_text.done').map((event) => event.text)).toEqual(['It is sunny in Paris.'])
  expect(proxy).toHaveCalledToolsInOrder(['get_weather'])
  expect(proxy.requests[1].request.messages.at(-1)).toMatchObject({ role: 'tool', content: [{ type: 'tool-result', id: call.call_id, name: 'get_weather' }] })
})

/** A Gemini Live session on the fake's URL, with what the server sent. */
async function live(config) {
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: proxy.url } })
  const messages = []
  const waiters = []
  let onClosed
  const closed = new Promise((resolve) => (onClosed = resolve))
  const session = await ai.live.connect({
    model: 'gemini-live-2.5-flash',
    config,
    callbacks: {
      onmessage: (message) => {
        messages.push(message)
        for (const waiter of [...waiters]) {
          if (messages.filter(waiter.test).length >= waiter.count) {
            waiters.splice(waiters.indexOf(waiter), 1)
            waiter.resolve()
          }
        }
      },
      onerror: () => {},
      onclose: () => onClosed(),
    },
  })
  const until = (test, count = 1) =>
    new Promise((resolve) => {
      if (messages.filter(test).length >= count) resolve()
      else waiters.push({ test, count, resolve })
    })
  return { session, messages, until, close: () => (session.close(), closed) }
}

const turnComplete = (message) => message.serverContent?.turnComplete === true

test('Gemini Live through the fixture: a text turn and a tool call', async () => {
  proxy.use(scriptedLLM(['Hi from Live.', toolCall('get_weather', { city: 'Rome' }), 'Sunny in Rome.']))
  const { session, messages, until, close } = await live({ responseModalities: [Modality.TEXT], tools: [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } }] }] })
  session.sendClientContent({ turns: [{ role: 'user', parts: [{ text: 'hello' }] }], turnComplete: true })
  await until(turnComplete)
  const said = messages.flatMap((message) => message.serverContent?.modelTurn?.parts ?? []).map((part) => part.text ?? '').join('')
  expect(said).toBe('Hi from Live.')
  session.sendClientContent({ turns: [{ role: 'user', parts: [{ text: 'weather in Rome?' }] }], turnComplete: true })
  await until((message) => message.toolCall !== undefined)
  const call = messages.find((message) => message.toolCall).toolCall.functionCalls[0]
  expect(call).toMatchObject({ name: 'get_weather', args: { city: 'Rome' } })
  session.sendToolResponse({ functionResponses: [{ id: call.id, name: 'get_weather', response: { sky: 'sunny' } }] })
  await until(turnComplete, 2)
  await close()
  expect(proxy).toHaveCalledToolsInOrder(['get_weather'])
  expect(proxy.requests.map((request) => request.dialect)).toEqual(['gemini-live', 'gemini-live', 'gemini-live'])
  expect(proxy.sessions[0]).toMatchObject({ transport: 'gemini-live', open: false })
})
