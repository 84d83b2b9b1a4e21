/**
 * Two builds of agent-doubles side by side: is a change worth keeping? Each build's FakeProxy
 * and the floor (a bare `node:http` server replaying build A's bytes) serve the same requests
 * from the real SDK in one process, in rotated slices of about 10 ms (`rounds.ts`), and the run
 * prints each build's ratio to the floor and B's to A: the median of the rounds, with their range.
 *
 *   cp -r dist /tmp/dist-before        # the build to compare against
 *   # … change the sources …
 *   npm run build
 *   npm run bench:ab -- anthropic /tmp/dist-before dist [rounds]
 *
 * Kinds: `json` (openai chat, JSON), `stream` (openai chat, 50 chunks), `anthropic` (messages,
 * 48 deltas). Two identical builds read B/A between ×0.99 and ×1.02 on the 2-core development
 * machine; a change that moves B/A by less than that has not been shown to matter.
 */
import Anthropic from '@anthropic-ai/sdk'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import OpenAI from 'openai'
import type { FakeProxy, scriptedLLM } from '../src/index.js'
import { bodies, captureAnswer, replies } from './proxy/servers.js'
import { calibrate, collectGarbage, median, runRound } from './rounds.js'

type Build = { FakeProxy: typeof FakeProxy; scriptedLLM: typeof scriptedLLM }
type Call = () => Promise<unknown>

const kinds = {
  json: { path: '/v1/chat/completions', body: bodies.chat },
  stream: { path: '/v1/chat/completions', body: bodies.chatStream },
  anthropic: { path: '/v1/messages', body: bodies.messagesStream },
} as const

const [kind, dirA, dirB, roundsArgument = '25'] = process.argv.slice(2)
if (!kind || !(kind in kinds) || !dirA || !dirB) {
  throw new TypeError(`usage: npm run bench:ab -- <${Object.keys(kinds).join('|')}> <build A dir> <build B dir> [rounds], got ${JSON.stringify(process.argv.slice(2))}`)
}
const { path, body } = kinds[kind as keyof typeof kinds]
const rounds = Number(roundsArgument)
const ROUND_MS = 1000

const load = async (dir: string): Promise<Build> => (await import(pathToFileURL(resolve(dir, 'index.js')).href)) as Build
const [a, b] = [await load(dirA), await load(dirB)]
const proxies = await Promise.all([a, b].map((build) => new build.FakeProxy({ llm: build.scriptedLLM(replies) }).start()))

/** The floor replays what build A answered, headers and bytes. */
const answer = await captureAnswer(`${proxies[0]!.url}${path}`, body)
const floor: Server = createServer((req, res) => {
  req.on('data', () => {})
  req.on('end', () => res.writeHead(200, answer.headers).end(answer.body))
})
await new Promise<void>((listening) => floor.listen(0, '127.0.0.1', listening))

function caller(url: string): Call {
  if (kind === 'anthropic') {
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 })
    return async () => {
      for await (const _ of await client.messages.create(bodies.messagesStream)) void _
    }
  }
  const client = new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 })
  if (kind === 'stream') {
    return async () => {
      for await (const _ of await client.chat.completions.create(bodies.chatStream)) void _
    }
  }
  return () => client.chat.completions.create(bodies.chat)
}

// Both builds record every request: clear them now and then so memory stays flat for both.
let calls = 0
const clearing = (call: Call): Call => () => {
  if (++calls % 1000 === 0) for (const proxy of proxies) proxy.reset()
  return call()
}
const cases = [caller(`http://127.0.0.1:${(floor.address() as AddressInfo).port}`), ...proxies.map((proxy) => caller(proxy.url))].map(clearing)

const batches: number[] = []
for (const call of cases) batches.push(await calibrate(call, 1000))
collectGarbage()

const ratios = { a: [] as number[], b: [] as number[], ba: [] as number[] }
for (let round = 0; round < rounds; round++) {
  const [floorCost, aCost, bCost] = (await runRound(cases, batches, ROUND_MS)).map((sample) => sample.cpu) as [number, number, number]
  ratios.a.push(aCost / floorCost)
  ratios.b.push(bCost / floorCost)
  ratios.ba.push(bCost / aCost)
}

const summary = (values: number[]): string => `×${median(values).toFixed(3)} (rounds ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`
console.log(`${kind}, ${rounds} rounds: A ÷ floor ${summary(ratios.a)}; B ÷ floor ${summary(ratios.b)}; B ÷ A ${summary(ratios.ba)}`)

floor.closeAllConnections()
floor.close()
await Promise.all(proxies.map((proxy) => proxy.close()))
