/**
 * OpenAI Responses over WebSocket (SPEC §18), as `@openai/agents` sends it with
 * `useResponsesWebSocket` (and as Codex does: `GET /v1/responses` with `Upgrade: websocket`):
 * `response.create` answered with the SSE stream's events, records and matchers as for HTTP.
 * Node 20 has no global WebSocket: `ws` is installed as one for these tests, as the SDK's docs say.
 */
import { Agent, OpenAIProvider, Runner, tool } from '@openai/agents'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { installMatchers } from '../../matchers/index.js'
import { WebSocket as WsWebSocket } from 'ws'
import { z } from 'zod'
import { customToolCall, scriptedLLM, toolCall } from '../../src/index.js'
import { startProxy } from '../proxy/helpers.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'

installMatchers(expect)

const globals = globalThis as { WebSocket?: unknown }
const hadWebSocket = 'WebSocket' in globals
const ownWebSocket = globals.WebSocket
beforeAll(() => {
  if (!hadWebSocket) globals.WebSocket = WsWebSocket
})
afterAll(() => {
  if (!hadWebSocket) delete globals.WebSocket
  else globals.WebSocket = ownWebSocket
})

function runnerFor(proxy: FakeProxy): { runner: Runner; provider: OpenAIProvider } {
  const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: `${proxy.url}/v1`, useResponses: true, useResponsesWebSocket: true })
  return { runner: new Runner({ modelProvider: provider, tracingDisabled: true }), provider }
}

/** A raw `ws` client on the proxy's Responses WebSocket, collecting what the server sends. */
async function rawSocket(url: string, headers: Record<string, string> = {}): Promise<{ ws: WsWebSocket; received: Array<Record<string, unknown>>; next: (type: string) => Promise<Record<string, unknown>> }> {
  const ws = new WsWebSocket(url.replace(/^http/, 'ws'), { headers })
  const received: Array<Record<string, unknown>> = []
  const waiters: Array<{ type: string; resolve: (event: Record<string, unknown>) => void; from: number }> = []
  ws.on('message', (data) => {
    const event = JSON.parse(String(data)) as Record<string, unknown>
    received.push(event)
    for (const waiter of [...waiters]) {
      if (event.type === waiter.type) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(event)
      }
    }
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  const next = (type: string): Promise<Record<string, unknown>> => new Promise((resolve) => waiters.push({ type, resolve, from: received.length }))
  return { ws, received, next }
}

describe('Responses over WebSocket with @openai/agents useResponsesWebSocket', () => {
  test('a tool loop runs over one WebSocket; each model response is one record, matchers read them', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'Sunny in Paris.']) })
    const { runner, provider } = runnerFor(proxy)
    const getWeather = tool({ name: 'get_weather', description: 'weather by city', parameters: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` })
    const agent = new Agent({ name: 'weather', instructions: 'Answer about the weather.', model: 'gpt-5', tools: [getWeather] })
    try {
      const result = await runner.run(agent, 'Weather in Paris?')
      expect(result.finalOutput).toBe('Sunny in Paris.')
    } finally {
      await provider.close()
    }
    expect(proxy).toHaveCalledToolsInOrder(['get_weather'])
    const requests = proxy.requests
    expect(requests).toHaveLength(2)
    expect(requests.every((request) => request.dialect === 'openai-responses' && request.path === '/v1/responses')).toBe(true)
    // The second response carries the tool's result back, as over HTTP.
    const last = requests[1]!.request.messages.at(-1)
    expect(last?.content[0]).toMatchObject({ type: 'tool-result', result: 'sunny in Paris' })
    const sessions = proxy.sessions
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ transport: 'openai-responses', path: '/v1/responses' })
    expect(sessions[0]!.events.map((event) => event.type)).toEqual(['response.create', 'response.create'])
    // Each response's record names the session that carried it.
    expect(requests.map((request) => request.session)).toEqual([sessions[0]!.id, sessions[0]!.id])
  })

  test('a lane serves its own WebSocket; the proxy sees it, a sibling lane does not', async () => {
    const proxy = await startProxy()
    const a = proxy.lane('a').use(scriptedLLM(['from a']))
    const b = proxy.lane('b').use(scriptedLLM(['from b']))
    const agent = new Agent({ name: 'echo', instructions: 'Echo.', model: 'gpt-5' })
    const [ra, rb] = [runnerFor(a), runnerFor(b)]
    try {
      const [outA, outB] = await Promise.all([ra.runner.run(agent, 'hi'), rb.runner.run(agent, 'hi')])
      expect([outA.finalOutput, outB.finalOutput]).toEqual(['from a', 'from b'])
    } finally {
      await Promise.all([ra.provider.close(), rb.provider.close()])
    }
    expect(a.requests.map((request) => request.lane)).toEqual(['a'])
    expect(b.requests.map((request) => request.lane)).toEqual(['b'])
    expect(a.sessions.map((session) => session.lane)).toEqual(['a'])
    expect(proxy.sessions.map((session) => session.lane).sort()).toEqual(['a', 'b'])
  })
})

describe('Responses over WebSocket on the wire (as Codex sends it)', () => {
  test("a prewarm (generate: false) completes with no output and does not use the script's turn; the turn continues from it", async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Done.']) })
    const { ws, received, next } = await rawSocket(`${proxy.url}/v1/responses`, { 'openai-beta': 'responses_websockets=2026-02-06', authorization: 'Bearer test' })
    ws.send(JSON.stringify({ type: 'response.create', model: 'gpt-5', instructions: 'Be brief.', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the bug' }] }], generate: false, store: false }))
    const warm = await next('response.completed')
    const warmResponse = warm.response as { id: string; output: unknown[] }
    expect(warmResponse.output).toEqual([])
    ws.send(JSON.stringify({ type: 'response.create', model: 'gpt-5', previous_response_id: warmResponse.id, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go ahead' }] }], store: false }))
    const done = await next('response.completed')
    expect((done.response as { output: Array<{ content: Array<{ text: string }> }> }).output[0]!.content[0]!.text).toBe('Done.')
    expect(received.map((event) => event.type)).toContain('response.output_text.delta')
    // Only the real turn reached the brain, with the prewarm's input before it.
    expect(proxy.requests).toHaveLength(1)
    const texts = proxy.requests[0]!.request.messages.flatMap((message) => message.content.map((part) => (part.type === 'text' ? part.text : part.type)))
    expect(texts).toEqual(['fix the bug', 'go ahead'])
    ws.close()
  })

  test("the prewarm's tools and developer text carry over to the turns that continue from it (instructions do not)", async () => {
    // Codex offers its tools once, as an `additional_tools` input item of the prewarm, and each
    // turn continues from the response before it by `previous_response_id`.
    const llm = scriptedLLM([customToolCall('exec', 'text("hi")'), 'It printed hi.'])
    const proxy = await startProxy({ llm })
    const { ws, next } = await rawSocket(`${proxy.url}/v1/responses`, { 'openai-beta': 'responses_websockets=2026-02-06' })
    const tools = { type: 'additional_tools', role: 'developer', tools: [{ type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec', description: 'Run JavaScript', format: { type: 'text' } }] }] }
    const developer = { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] }
    ws.send(JSON.stringify({ type: 'response.create', model: 'gpt-6.1-sol', instructions: 'Not carried.', input: [tools, developer], generate: false, store: false }))
    const warm = (await next('response.completed')).response as { id: string }
    const user = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'say hi' }] }
    ws.send(JSON.stringify({ type: 'response.create', model: 'gpt-6.1-sol', previous_response_id: warm.id, input: [user], store: false }))
    const first = (await next('response.completed')).response as { id: string; output: Array<Record<string, unknown>> }
    expect(first.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'exec', input: 'text("hi")' })])
    const callId = first.output[0]!.call_id as string
    ws.send(JSON.stringify({ type: 'response.create', model: 'gpt-6.1-sol', previous_response_id: first.id, input: [{ type: 'custom_tool_call_output', call_id: callId, output: 'hi' }], store: false }))
    const second = (await next('response.completed')).response as { output: Array<{ content?: Array<{ text: string }> }> }
    expect(second.output[0]!.content![0]!.text).toBe('It printed hi.')
    for (const request of llm.requests) {
      expect(request.tools).toEqual([expect.objectContaining({ name: 'exec', custom: true, namespace: 'functions' })])
      expect(request.system).toBe('You are Codex.')
    }
    expect(proxy).toHaveRequestedTool('exec')
    expect(proxy).toHaveReceivedToolResult('exec', 'hi')
    expect(proxy).toHaveSentValidRequests()
    ws.close()
  })

  test('what HTTP answers with an error status comes as the error event with that status', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['unused']) })
    const { ws, next } = await rawSocket(`${proxy.url}/v1/responses`)
    ws.send(JSON.stringify({ type: 'response.create', model: 'gpt-5', input: 'hi', previous_response_id: 'resp_missing' }))
    const error = await next('error')
    expect(error).toMatchObject({ type: 'error', status: 400, error: { code: 'previous_response_not_found', param: 'previous_response_id' } })
    proxy.providerError('rate_limit')
    ws.send(JSON.stringify({ type: 'response.create', model: 'gpt-5', input: 'hi' }))
    expect(await next('error')).toMatchObject({ status: 429, error: { type: 'requests' } })
    ws.send(JSON.stringify({ type: 'session.update' }))
    expect(await next('error')).toMatchObject({ status: 400, error: { code: 'invalid_value', param: 'type' } })
    ws.close()
  })

  test('an upgrade to a path with no WebSocket route gets a JSON 404, not a hang', async () => {
    const proxy = await startProxy()
    const ws = new WsWebSocket(`${proxy.url.replace('http', 'ws')}/v1/chat/completions`)
    const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)))
    expect(status).toBe(404)
  })
})
