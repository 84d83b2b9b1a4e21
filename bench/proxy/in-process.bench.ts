/**
 * No socket: the real `openai` client given a `fetch` that answers in process — undici's
 * `MockAgent` replaying the bytes FakeProxy answers (the baseline), `proxy.fetch`, and MSW's
 * request handlers (`getResponse`, what `setupServer` runs for each intercepted request).
 */
import OpenAI from 'openai'
import { MockAgent, fetch as undiciFetch } from 'undici'
import { http, HttpResponse, getResponse } from 'msw'
import { FakeProxy, scriptedLLM } from 'agent-doubles'
import type { BenchGroup } from '../run.js'
import { bodies, replies } from './servers.js'

const ORIGIN = 'http://fake.local'
let proxy: FakeProxy
let agent: MockAgent
const clients: Record<string, OpenAI> = {}

async function setup(): Promise<void> {
  proxy = new FakeProxy({ llm: scriptedLLM(replies) })
  const captured: Record<string, { body: string; type: string }> = {}
  for (const [name, body] of Object.entries({ json: bodies.chat, stream: bodies.chatStream })) {
    const answer = await proxy.fetch(`${ORIGIN}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    captured[name] = { body: await answer.text(), type: answer.headers.get('content-type')! }
  }
  proxy.reset()
  const answerFor = (body: string): { body: string; type: string } => (body.includes('"stream":true') ? captured.stream : captured.json)

  agent = new MockAgent()
  agent.disableNetConnect()
  agent
    .get(ORIGIN)
    .intercept({ path: '/v1/chat/completions', method: 'POST' })
    .reply(200, (options) => answerFor(String(options.body)).body, { headers: { 'content-type': 'application/json' } })
    .persist()
  const handlers = [
    http.post(`${ORIGIN}/v1/chat/completions`, async ({ request }) => {
      const answer = answerFor(await request.text())
      return new HttpResponse(answer.body, { headers: { 'content-type': answer.type } })
    }),
  ]
  const mswFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
    (await getResponse(handlers, new Request(input, init)))!

  const options = { apiKey: 'k', baseURL: `${ORIGIN}/v1`, maxRetries: 0 }
  clients.mockAgent = new OpenAI({ ...options, fetch: ((input: string, init: RequestInit) => undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch })
  clients.proxy = new OpenAI({ ...options, fetch: proxy.fetch })
  clients.msw = new OpenAI({ ...options, fetch: mswFetch as typeof fetch })
}

async function teardown(): Promise<void> {
  await agent.close()
  await proxy.close()
}

let calls = 0
function clearRecords(): void {
  if (++calls % 1000 === 0) proxy.reset()
}

function json(client: OpenAI) {
  clearRecords()
  return client.chat.completions.create(bodies.chat)
}

async function streamed(client: OpenAI): Promise<void> {
  clearRecords()
  const stream = await client.chat.completions.create(bodies.chatStream)
  for await (const _ of stream) void _
}

export const groups: BenchGroup[] = [
  {
    title: 'openai chat.completions.create, JSON, in process (no socket)',
    setup,
    teardown,
    cases: [
      { name: 'undici MockAgent, same bytes (baseline)', fn: () => json(clients.mockAgent) },
      { name: 'proxy.fetch + ScriptedLLM', fn: () => json(clients.proxy), target: 1.3 },
      { name: 'MSW handler (getResponse), same bytes', fn: () => json(clients.msw) },
    ],
  },
  {
    title: 'openai chat.completions.create, streamed, 50 chunks, in process (no socket)',
    setup,
    teardown,
    cases: [
      { name: 'undici MockAgent, same bytes (baseline)', fn: () => streamed(clients.mockAgent) },
      { name: 'proxy.fetch + ScriptedLLM', fn: () => streamed(clients.proxy), target: 1.3 },
      { name: 'MSW handler (getResponse), same bytes', fn: () => streamed(clients.msw) },
    ],
  },
]
