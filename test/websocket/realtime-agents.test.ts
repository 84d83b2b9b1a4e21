/**
 * `@openai/agents-realtime` `RealtimeSession` with its WebSocket transport, unchanged, against
 * the FakeProxy (SPEC §18): a tool, a handoff, an output guardrail and an interruption, driven by
 * a ScriptedLLM; on the default host (routed by the network guard) and on a lane URL; concurrent
 * sessions on separate lanes never cross.
 */
import { RealtimeAgent, RealtimeSession, tool, type RealtimeOutputGuardrail } from '@openai/agents-realtime'
import { describe, expect, onTestFinished, test } from 'vitest'
import { z } from 'zod'
import { installMatchers } from '../../matchers/index.js'
import { installNetworkGuard, routeProvidersTo, scriptedLLM, toolCall } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

installMatchers(expect)

/** A connected session on `proxy` (its lane URL), closed when the test ends. */
async function open(proxy: FakeProxy, agent: RealtimeAgent, options: ConstructorParameters<typeof RealtimeSession>[1] = {}): Promise<RealtimeSession> {
  const session = new RealtimeSession(agent, { transport: 'websocket', model: 'gpt-realtime', ...options })
  onTestFinished(() => session.close())
  await session.connect({ apiKey: 'test-key', url: `${proxy.url.replace(/^http/, 'ws')}/v1/realtime?model=gpt-realtime` })
  return session
}

/** Resolves at the session's next `event` (the arguments it was emitted with). */
function next<T extends unknown[]>(session: RealtimeSession, event: string): Promise<T> {
  return new Promise((resolve) => (session as unknown as { once: (name: string, listener: (...args: T) => void) => void }).once(event, (...args) => resolve(args)))
}

/** The assistant's transcripts in the session's history, in order. */
function assistantSaid(session: RealtimeSession): string[] {
  return session.history.flatMap((item) =>
    item.type === 'message' && item.role === 'assistant' ? item.content.map((part) => ('transcript' in part ? (part.transcript ?? '') : 'text' in part ? part.text : '')) : [],
  )
}

const getWeather = tool({
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
})

describe('@openai/agents-realtime RealtimeSession over the WebSocket transport', () => {
  test('a tool: the session runs it and the model answers with its result; records and matchers as over HTTP', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.']) })
    const agent = new RealtimeAgent({ name: 'assistant', instructions: 'You tell the weather.', tools: [getWeather] })
    const session = await open(proxy, agent)
    const toolEnded = next<[unknown, unknown, unknown, string]>(session, 'agent_tool_end')
    session.sendMessage('What is the weather in Paris?')
    const [, , , result] = await toolEnded
    expect(result).toBe('sunny in Paris')
    await expect.poll(() => assistantSaid(session)).toContain('It is sunny in Paris.')
    expect(proxy).toHaveCalledToolsInOrder(['get_weather'])
    const [first, second] = proxy.requests
    expect(first!.request.system).toContain('You tell the weather.')
    expect(first!.request.tools?.map((definition) => definition.name)).toEqual(['get_weather'])
    expect(second!.request.messages.at(-1)?.content[0]).toMatchObject({ type: 'tool-result', name: 'get_weather', result: 'sunny in Paris' })
    expect(proxy.sessions[0]!.events.map((event) => event.type)).toContain('session.update')
  })

  test('a handoff: the triage agent transfers, the session takes the other agent, which answers', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('transfer_to_spanish_agent', {}), '¡Hola! ¿En qué puedo ayudarte?']) })
    const spanish = new RealtimeAgent({ name: 'spanish_agent', instructions: 'Habla solo español.', handoffDescription: 'Speaks Spanish' })
    const triage = new RealtimeAgent({ name: 'triage', instructions: 'Route the user.', handoffs: [spanish] })
    const session = await open(proxy, triage)
    const handoff = next<[unknown, RealtimeAgent, RealtimeAgent]>(session, 'agent_handoff')
    session.sendMessage('Hola, ¿hablas español?')
    const [, from, to] = await handoff
    expect([from.name, to.name]).toEqual(['triage', 'spanish_agent'])
    await expect.poll(() => assistantSaid(session)).toContain('¡Hola! ¿En qué puedo ayudarte?')
    expect(proxy).toHaveCalledToolsInOrder(['transfer_to_spanish_agent'])
    // The answer after the handoff was asked with the Spanish agent's instructions.
    expect(proxy.requests[1]!.request.system).toContain('Habla solo español.')
  })

  test('an output guardrail trips on the transcript: the response is cut and the feedback asked for a new one', async () => {
    const proxy = await startProxy({
      llm: scriptedLLM(['The secret code is 1234 and more words follow here slowly', 'I cannot share that.'], { latency: { chunkMs: 15 } }),
    })
    const noSecrets: RealtimeOutputGuardrail = {
      name: 'no secrets',
      execute: async ({ agentOutput }) => ({ tripwireTriggered: agentOutput.includes('secret'), outputInfo: { reason: 'mentions a secret' } }),
    }
    const agent = new RealtimeAgent({ name: 'assistant', instructions: 'Keep secrets.' })
    const session = await open(proxy, agent, { outputGuardrails: [noSecrets], outputGuardrailSettings: { debounceTextLength: 10 } })
    const tripped = next<[unknown, unknown, Error]>(session, 'guardrail_tripped')
    session.sendMessage('Tell me the code')
    const [, , error] = await tripped
    expect(error.message).toContain('Output guardrail triggered')
    await expect.poll(() => assistantSaid(session)).toContain('I cannot share that.')
    // The first answer never finished: the guardrail cancelled it.
    const dones = proxy.sessions[0]!.events.map((event) => event.type)
    expect(dones).toContain('response.cancel')
    expect(proxy.requests).toHaveLength(2)
    expect(proxy.requests[0]).toMatchObject({ cancelled: 'client_cancelled', response: { content: [{ type: 'text', text: expect.stringContaining('secret') }] } })
    expect(proxy.requests[1]!.cancelled).toBeUndefined()
    expect(JSON.stringify(proxy.requests[1]!.request.messages)).toContain('no secrets')
  })

  test('an interruption: interrupt() mid-answer cancels it and truncates the spoken item', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one two three four five six seven eight nine ten'], { latency: { chunkMs: 30 } }) })
    const session = await open(proxy, new RealtimeAgent({ name: 'counter', instructions: 'Count.' }))
    const audio = next<[unknown]>(session, 'audio')
    session.sendMessage('count to ten')
    await audio
    const interrupted = next<[]>(session, 'audio_interrupted')
    session.interrupt()
    await interrupted
    await expect.poll(() => proxy.sessions[0]!.events.map((event) => event.type)).toEqual(expect.arrayContaining(['response.cancel', 'conversation.item.truncate']))
    // The answer was cut before its end: the record keeps what it had said, and why it stopped.
    expect(proxy.requests).toHaveLength(1)
    const [cut] = proxy.requests
    expect(cut!.cancelled).toBe('client_cancelled')
    const said = cut!.response!.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    expect(said).toMatch(/^one /)
    expect('one two three four five six seven eight nine ten'.startsWith(said)).toBe(true)
    expect(said).not.toBe('one two three four five six seven eight nine ten')
  })

  test('on its default host (wss://api.openai.com) through the network guard, and two lanes at once never cross', async () => {
    const proxy = await startProxy()
    const stopRouting = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
    onTestFinished(stopRouting)
    const viaHost = new RealtimeSession(new RealtimeAgent({ name: 'a', instructions: 'A.' }), { transport: 'websocket', model: 'gpt-realtime' })
    onTestFinished(() => viaHost.close())
    proxy.use(scriptedLLM(['From the default host.']))
    await viaHost.connect({ apiKey: 'test-key' })
    viaHost.sendMessage('hi')
    await expect.poll(() => assistantSaid(viaHost)).toContain('From the default host.')

    const [left, right] = [proxy.lane('left').use(scriptedLLM(['Left answer.'])), proxy.lane('right').use(scriptedLLM(['Right answer.']))]
    const [a, b] = await Promise.all([open(left, new RealtimeAgent({ name: 'l', instructions: 'L.' })), open(right, new RealtimeAgent({ name: 'r', instructions: 'R.' }))])
    a.sendMessage('left?')
    b.sendMessage('right?')
    await expect.poll(() => [assistantSaid(a), assistantSaid(b)]).toEqual([['Left answer.'], ['Right answer.']])
    expect(left.requests.map((request) => request.lane)).toEqual(['left'])
    expect(right.requests.map((request) => request.lane)).toEqual(['right'])
    expect(left.sessions).toHaveLength(1)
  })
})
