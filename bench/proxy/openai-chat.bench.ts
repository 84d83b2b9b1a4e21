/**
 * The real `openai` client against three servers on 127.0.0.1: a bare node:http server that
 * answers one fixed completion (the floor), FakeProxy, and aimock's LLMock.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { LLMock } from '@copilotkit/aimock'
import { FakeProxy, scriptedLLM } from '../../src/index.js'
import type { BenchGroup } from '../run.js'

const completion = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 0,
  model: 'gpt-5',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hi there' }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
})

let bare: Server
let proxy: FakeProxy
let aimock: LLMock
const clients: Record<string, OpenAI> = {}
const body = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hello' }] }

async function setup(): Promise<void> {
  bare = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(completion))
  })
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))
  proxy = await new FakeProxy({ llm: scriptedLLM({ hello: 'hi there' }) }).start()
  aimock = new LLMock({ port: 0 })
  aimock.onMessage('hello', { content: 'hi there' })
  await aimock.start()

  const port = (bare.address() as AddressInfo).port
  clients.bare = new OpenAI({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}/v1` })
  clients.proxy = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1` })
  clients.aimock = new OpenAI({ apiKey: 'k', baseURL: `${aimock.url}/v1` })
}

async function teardown(): Promise<void> {
  bare.closeAllConnections()
  await new Promise((resolve) => bare.close(resolve))
  await proxy.close()
  await aimock.stop()
}

// Both servers record every request; clear them now and then so memory stays flat for both.
let calls = 0
function clearRecords(): void {
  if (++calls % 1000 !== 0) return
  proxy.reset()
  aimock.clearRequests()
}

function create(client: OpenAI) {
  clearRecords()
  return client.chat.completions.create(body)
}

async function streamed(client: OpenAI): Promise<void> {
  clearRecords()
  const stream = await client.chat.completions.create({ ...body, stream: true })
  for await (const _ of stream) void _
}

export const groups: BenchGroup[] = [
  {
    title: 'openai chat.completions.create, one JSON round trip (baseline: bare node:http)',
    setup,
    teardown,
    cases: [
      { name: 'bare node:http server (floor)', fn: () => create(clients.bare) },
      { name: 'FakeProxy + ScriptedLLM map', fn: () => create(clients.proxy) },
      { name: 'aimock LLMock', fn: () => create(clients.aimock) },
    ],
  },
  {
    title: 'openai chat.completions.create, streamed (baseline: FakeProxy)',
    setup,
    teardown,
    cases: [
      { name: 'FakeProxy + ScriptedLLM map', fn: () => streamed(clients.proxy) },
      { name: 'aimock LLMock', fn: () => streamed(clients.aimock) },
    ],
  },
]
