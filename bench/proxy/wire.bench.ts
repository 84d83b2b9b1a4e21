/**
 * Round trips over real sockets with the real `openai` and `@anthropic-ai/sdk` clients: FakeProxy
 * against the floor (a bare node:http server sending the same bytes) and against aimock.
 */
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import type { BenchCase, BenchGroup } from '../run.js'
import { bodies, startServers, type Servers } from './servers.js'

let servers: Servers
const openai: Record<string, OpenAI> = {}
const anthropic: Record<string, Anthropic> = {}

async function setup(): Promise<void> {
  servers = await startServers()
  const urls = { bare: servers.bare, proxy: servers.proxy.url, aimock: servers.aimock.url }
  for (const [name, url] of Object.entries(urls)) {
    openai[name] = new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 })
    anthropic[name] = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 })
  }
}

const teardown = (): Promise<void> => servers.close()

// Both doubles record every request; clear them now and then so memory stays flat for both.
let calls = 0
function clearRecords(): void {
  if (++calls % 1000 !== 0) return
  servers.proxy.reset()
  servers.aimock.clearRequests()
}

function json(client: OpenAI) {
  clearRecords()
  return client.chat.completions.create(bodies.chat)
}

async function chatStream(client: OpenAI): Promise<void> {
  clearRecords()
  const stream = await client.chat.completions.create(bodies.chatStream)
  for await (const _ of stream) void _
}

async function messagesStream(client: Anthropic): Promise<void> {
  clearRecords()
  const stream = await client.messages.create(bodies.messagesStream)
  for await (const _ of stream) void _
}

/** SPEC §23 (third release): streams at most 0.85× aimock's time (it was 0.90× in §16). */
const STREAMS_VS_AIMOCK = 0.85
const FLOOR = 'bare node:http, same bytes (floor)'
const PROXY = 'FakeProxy + ScriptedLLM'
const AIMOCK = 'aimock LLMock'
/**
 * FakeProxy ÷ aimock, and beside it the floor ÷ aimock: the best any server sending FakeProxy's
 * bytes could read in the same run (a server that costs nothing), so a run shows how much of
 * the stream target is within a server's reach at all.
 */
const VERSUS_AIMOCK = [
  { name: PROXY, against: AIMOCK, target: STREAMS_VS_AIMOCK },
  { name: FLOOR, against: AIMOCK },
]

/** The floor, FakeProxy (with its target) and aimock, each running `call` on its own server. */
function versus(target: number, call: (server: string) => Promise<unknown>): BenchCase[] {
  return [
    { name: FLOOR, fn: () => call('bare') },
    { name: PROXY, fn: () => call('proxy'), target },
    { name: AIMOCK, fn: () => call('aimock') },
  ]
}

export const groups: BenchGroup[] = [
  {
    title: 'openai chat.completions.create, JSON, over 127.0.0.1',
    setup,
    teardown,
    cases: versus(1.1, (server) => json(openai[server])),
  },
  {
    title: 'openai chat.completions.create, streamed, 50 chunks, over 127.0.0.1',
    setup,
    teardown,
    cases: versus(1.15, (server) => chatStream(openai[server])),
    comparisons: VERSUS_AIMOCK,
  },
  {
    title: 'anthropic messages.create, streamed, 48 text deltas, over 127.0.0.1',
    setup,
    teardown,
    cases: versus(1.15, (server) => messagesStream(anthropic[server])),
    comparisons: VERSUS_AIMOCK,
  },
]
