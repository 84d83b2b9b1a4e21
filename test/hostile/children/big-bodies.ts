/**
 * Run in a child process by big-bodies.test.ts: request bodies of up to 31 MiB (the 32 MiB
 * limit's size) of several shapes on several dialects, each sent to a proxy with its default
 * settings (token counting and the prompt cache on). Prints one JSON line: each request's status,
 * size and time, and the longest block of the event loop while it was served.
 *
 * A block is the CPU time the main thread spent between two ticks of a 10 ms timer (see
 * `BlockMeter`); `monitorEventLoopDelay`'s wall-clock maximum is printed beside it.
 */
import { request } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { FakeProxy } from '../../../src/server/fake-proxy.js'
import { BlockMeter } from '../../child-figures.js'
import { pairsTargets } from '../pairs.js'

const proxy = await new FakeProxy().start()

const blocks = new BlockMeter()
const delay = monitorEventLoopDelay({ resolution: 10 })

const SIZE = 31 * 1024 * 1024
/** 5,003 varied words (a tokenizer's worst case is text it cannot merge), over and over. */
const cycle = Array.from({ length: 5003 }, (_, i) => `word${(i * 7919) % 5003} `).join('')
/** `chars` of those words, from the `seed`th. */
const twice = cycle + cycle
const words = (chars: number, seed: number): string => {
  const from = (seed * 9) % cycle.length
  return chars <= cycle.length ? twice.slice(from, from + chars) : cycle.repeat(Math.ceil(chars / cycle.length)).slice(0, chars)
}
const many = <T>(each: number, item: (i: number) => T): T[] => Array.from({ length: Math.floor(SIZE / each) }, (_, i) => item(i))

/** Each shape: its route and its body, built only when it is sent. */
const shapes: Record<string, () => [string, unknown]> = {
  // One message of 16 MiB, counted by the tokenizer in slices: over the window, the window's 400.
  // Not 31: the tokenizer reads the text flat, and making one string of 31 MiB flat is a single
  // step that touches 31 MiB of fresh memory (2–20 ms on most machines, but ~230 ms where a first
  // touch costs 7 ms a MiB, as on the sandboxed VMs this suite's CI runs on).
  chatOneMessage: () => ['/v1/chat/completions', { model: 'gpt-4o', messages: [{ role: 'user', content: words(16 * 1024 * 1024, 1) }] }],
  // 31,000 messages to a model with no window: answered, its prompt laid out and cached.
  chatManyMessages: () => ['/v1/chat/completions', { model: 'my-model', messages: many(1040, (i) => ({ role: i % 2 ? 'assistant' : 'user', content: words(1000, i) })) }],
  // 95,000 text blocks in one message.
  anthropicManyBlocks: () => ['/v1/messages', { model: 'my-model', max_tokens: 10, messages: [{ role: 'user', content: many(340, (i) => ({ type: 'text', text: words(300, i) })) }] }],
  geminiManyContents: () => ['/v1beta/models/my-model:generateContent', { contents: many(1060, (i) => ({ role: i % 2 ? 'model' : 'user', parts: [{ text: words(1000, i) }] })) }],
  bedrockManyMessages: () => ['/model/my-model/converse', { messages: many(1060, (i) => ({ role: i % 2 ? 'assistant' : 'user', content: [{ text: words(1000, i) }] })) }],
  // 31,000 messages, then a byte that makes it no JSON: the 400 with JSON.parse's own message.
  chatNotJson: () => ['/v1/chat/completions', { model: 'my-model', messages: many(1040, (i) => ({ role: i % 2 ? 'assistant' : 'user', content: words(1000, i) })), broken: NOT_JSON }],
}
// Hundreds of thousands of small items (issue 29): each over the bound on a body's values
// (`maxBodyValues`, 300,000 by default), so refused with the route's 400 before validation,
// decoding and layout, each of which took 0.6–2 s in one step for these bodies.
for (const target of pairsTargets) {
  // 190,000 tool calls, each answered by a tool result (21–27 MiB).
  shapes[`pairs190k:${target.dialect}`] = () => [target.path, target.body(190_000)]
}
/**
 * `n` one-word messages, `user` and `assistant` in turn, as JSON text (made by repeating one pair:
 * building 800,000 objects and stringifying them took the child seconds a body); `wrap` turns a
 * message's role and text into the dialect's own item.
 */
const oneWord = (n: number, wrap: (role: string) => string): string => `${wrap('user')},${wrap('assistant')},`.repeat(n / 2).slice(0, -1)
const chatItem = (role: string): string => `{"role":"${role}","content":"w"}`
Object.assign(shapes, {
  // 800,000 one-word messages (25–31 MiB); Bedrock's are longer, so 760,000 stay under 32 MiB.
  'words800k:openai-chat': () => ['/v1/chat/completions', `{"model":"my-model","messages":[${oneWord(800_000, chatItem)}]}`],
  'words800k:openai-responses': () => ['/v1/responses', `{"model":"my-model","input":[${oneWord(800_000, chatItem)}]}`],
  'words800k:anthropic-messages': () => ['/v1/messages', `{"model":"my-model","max_tokens":10,"messages":[${oneWord(800_000, chatItem)}]}`],
  'words800k:gemini': () => ['/v1beta/models/my-model:generateContent', `{"contents":[${oneWord(800_000, (role) => `{"role":"${role === 'assistant' ? 'model' : role}","parts":[{"text":"w"}]}`)}]}`],
  'words800k:bedrock-converse': () => ['/model/my-model/converse', `{"messages":[${oneWord(760_000, (role) => `{"role":"${role}","content":[{"text":"w"}]}`)}]}`],
  'words800k:ollama': () => ['/api/chat', `{"model":"my-model","stream":false,"messages":[${oneWord(800_000, chatItem)}]}`],
  // Just under the default bound (300,000 values): answered, with validation, decoding and the
  // layout each one step. 99,000 messages of three values; Gemini's and Bedrock's have five.
  'under:openai-chat': () => ['/v1/chat/completions', `{"model":"my-model","messages":[${oneWord(99_000, chatItem)}]}`],
  'under:openai-responses': () => ['/v1/responses', `{"model":"my-model","input":[${oneWord(99_000, chatItem)}]}`],
  'under:anthropic-messages': () => ['/v1/messages', `{"model":"my-model","max_tokens":10,"messages":[${oneWord(99_000, chatItem)}]}`],
  'under:gemini': () => ['/v1beta/models/my-model:generateContent', `{"contents":[${oneWord(59_000, (role) => `{"role":"${role === 'assistant' ? 'model' : role}","parts":[{"text":"w"}]}`)}]}`],
  'under:bedrock-converse': () => ['/model/my-model/converse', `{"messages":[${oneWord(59_000, (role) => `{"role":"${role}","content":[{"text":"w"}]}`)}]}`],
  'under:ollama': () => ['/api/chat', `{"model":"my-model","stream":false,"messages":[${oneWord(99_000, chatItem)}]}`],
  // One long string inside a value the layout writes as JSON: a tool's 27 MiB description
  // (counted by the tokenizer on gpt-4o; estimated on Anthropic's my-model) and a 27 MiB inline image. Its
  // text joins the string in as it is; `JSON.stringify` wrote it out again in 270–290 ms.
  'description27MiB:gpt-4o': () => ['/v1/chat/completions', `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","description":"${words(27 * 1024 * 1024, 2)}","parameters":{"type":"object"}}}]}`],
  'description27MiB:anthropic-messages': () => ['/v1/messages', `{"model":"my-model","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","description":"${words(27 * 1024 * 1024, 2)}","input_schema":{"type":"object"}}]}`],
  'image27MiB:gemini': () => ['/v1beta/models/my-model:generateContent', `{"contents":[{"role":"user","parts":[{"text":"hi"},{"inlineData":{"mimeType":"image/png","data":"${'A'.repeat(27 * 1024 * 1024)}"}}]}]}`],
  // One tool whose schema has 640,000 properties (28 MiB): its layout (`JSON.stringify`) took 0.6–0.9 s.
  'schema27MiB:openai-chat': () => {
    const properties = Array.from({ length: 640_000 }, (_, i) => `"p${i}":{"type":"string","description":"d"}`).join(',')
    return ['/v1/chat/completions', `{"model":"my-model","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","properties":{${properties}}}}}]}`]
  },
} satisfies Record<string, () => [string, unknown]>)

/** A JSON answer with every string, number and boolean replaced by its type: the route's error shape. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]))
  return typeof value
}

/** Stands for a value; replaced by text no JSON parser takes once the body is made. */
const NOT_JSON = '\u0000not json\u0000'

/** Posts `body` (bytes made beforehand, so the client's own work is a write); its status and the start of its answer. */
function post(path: string, body: Buffer): Promise<{ status: number; answer: string; shape: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
      let answer = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (answer += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, answer: answer.slice(0, 300), shape: shapeOf(JSON.parse(answer)) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

// A first request loads the tokenizer: the blocks below are the requests' own.
await post('/v1/chat/completions', Buffer.from(JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'warm' }] })))
proxy.reset()
/** The shapes to send (names joined by commas), else all of them. */
const only = process.argv[2]?.split(',')
const results: Record<string, unknown> = {}
for (const [name, shape] of Object.entries(shapes)) {
  if (only && !only.includes(name)) continue
  const [path, json] = shape()
  // A shape given as text is sent as it is.
  const body = Buffer.from(typeof json === 'string' ? json : JSON.stringify(json).replace(JSON.stringify(NOT_JSON), '{,}'))
  // Building the body is the client's work, not the proxy's: the block is measured from here.
  await new Promise((resolve) => setTimeout(resolve, 50))
  blocks.reset()
  delay.reset()
  delay.enable()
  const started = performance.now()
  const { status, answer, shape: answerShape } = await post(path, body)
  delay.disable()
  const result: Record<string, unknown> = { status, answer: status === 200 ? undefined : answer, bytes: body.length, ms: Math.round(performance.now() - started), blockMs: Math.round(blocks.maxMs), stallMs: Math.round(delay.max / 1e6) }
  // What was recorded, and the shape of the route's own 400 for a body that is not JSON, to compare.
  result.recorded = proxy.requests.map((record) => ({ status: record.status, message: record.error?.message.slice(0, 120) }))
  if (status === 400) result.sameShapeAsNotJson = JSON.stringify(answerShape) === JSON.stringify((await post(path, Buffer.from('{"a": '))).shape)
  results[name] = result
  proxy.reset()
}
blocks.stop()
await proxy.close()
process.stdout.write(`${JSON.stringify(results)}\n`)
