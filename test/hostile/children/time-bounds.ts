/**
 * Run in a child process by time-bounds.test.ts: the requests of issue 29 that froze the whole
 * proxy, sent back to back to one proxy whose event loop is watched with
 * `monitorEventLoopDelay`. Prints one JSON line: each request's status, a digest of its answer,
 * the longest event-loop stall, and the heap before and after `reset()` and `close()`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { FakeProxy } from '../../../src/server/fake-proxy.js'
import { pairsTargets } from '../pairs.js'
import { BlockMeter } from '../../child-figures.js'

const collect = (globalThis as { gc?: () => void }).gc!
// Token counting and context windows off: the 50k-pair bodies are over every model's window, and
// what is measured here is the matching of results to calls, not the tokenizer. They hold
// 450,000–550,000 JSON values, over the default bound (300,000): raised, so they are matched.
const proxy = await new FakeProxy({ controlApi: true, tokens: 'estimate', promptCache: false, maxBodyValues: 600_000 }).start()
const delay = monitorEventLoopDelay({ resolution: 10 })
const blocks = new BlockMeter()
const post = async (path: string, body: string, type = 'application/json', method = 'POST'): Promise<{ status: number; body: unknown; bytes: number; stallMs: number; blockMs: number }> => {
  delay.reset()
  blocks.reset()
  const res = await fetch(`${proxy.url}${path}`, { method, headers: { 'content-type': type }, body })
  const text = await res.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = text.slice(0, 200)
  }
  return { status: res.status, body: json, bytes: Buffer.byteLength(body), stallMs: delay.max / 1e6, blockMs: blocks.maxMs }
}

/** `anyOf` of two `$ref`s to the next level, `levels` deep, ending in what cannot be built. */
function refBomb(levels: number): unknown {
  const $defs: Record<string, unknown> = {}
  for (let i = 0; i < levels; i++) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] }
  $defs[`d${levels}`] = { type: 'array', minItems: 1e9 }
  return { type: 'object', properties: { a: { $ref: '#/$defs/d0' } }, required: ['a'], $defs }
}

/** `anyOf`, `oneOf` and `allOf` by turns over `$ref`s, `levels` deep, every branch failing at the bottom. */
function nestedCombinators(levels: number): unknown {
  const $defs: Record<string, unknown> = {}
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/c${i + 1}` }
    $defs[`c${i}`] = i % 3 === 2 ? { allOf: [next, { type: 'string' }] } : { [i % 3 === 0 ? 'anyOf' : 'oneOf']: [next, next, next] }
  }
  $defs[`c${levels}`] = { type: 'string', minLength: 1e9 }
  return { type: 'object', properties: { a: { $ref: '#/$defs/c0' } }, required: ['a'], $defs }
}

const chat = (schema: unknown): string =>
  JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'go' }], response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } })
const messages = (schema: unknown): string =>
  JSON.stringify({ model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'go' }], tools: [{ name: 'x', input_schema: schema }], tool_choice: { type: 'any' } })

delay.enable()
const results: Record<string, unknown> = {}
// A first request loads what the proxy loads lazily: the stalls below are the requests' own.
results.warmUp = await post('/v1/chat/completions', chat({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }))
// Built before any is sent: a client pausing between requests for longer than the server's
// keep-alive (5 s) would meet a connection closing under it.
const pairs = pairsTargets.flatMap((target) =>
  [5_000, 50_000].map((n) => [`pairs:${target.dialect}:${n}`, target.path, JSON.stringify(target.body(n))] as const),
)
results.refBombChat = await post('/v1/chat/completions', chat(refBomb(30)))
results.refBombMessages = await post('/v1/messages', messages(refBomb(60)))
results.minProperties = await post('/v1/chat/completions', chat({ type: 'object', minProperties: 1e7 }))
results.nested = await post('/v1/chat/completions', chat(nestedCombinators(24)))
for (const [name, path, body] of pairs) results[name] = await post(path, body)
results.catastrophicRule = await post('/_agent-doubles/script', JSON.stringify([{ match: { lastUser: '/^(a+)+$/' }, reply: 'x' }]), 'application/json', 'PUT')
results.stillServes = await post('/v1/chat/completions', JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'a'.repeat(28) + '!' }] }))
delay.disable()
blocks.stop()

// Memory given back: 1,000 scripts of 100 KB loaded one after another, 1,000 records of 100 KB.
collect()
const before = process.memoryUsage().heapUsed
const big = 'x'.repeat(100_000)
for (let i = 0; i < 1000; i++) {
  await post('/_agent-doubles/script', JSON.stringify([{ match: { lastUser: `n${i}` }, reply: big }]), 'application/json', 'PUT')
  await post('/v1/chat/completions', JSON.stringify({ model: 'm', messages: [{ role: 'user', content: big }] }))
}
collect()
results.heapLoadedMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20
await post('/_agent-doubles/reset', '{}')
collect()
results.heapAfterResetMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20
await proxy.close()
collect()
results.heapAfterCloseMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20
process.stdout.write(`${JSON.stringify(results)}\n`)
