/**
 * Run in a child process by big-bodies.test.ts: request bodies of about 7 MB on the chat,
 * Anthropic (many blocks) and Responses routes, each sent to a proxy with its default settings
 * (token counting and the prompt cache on) whose event loop is watched with
 * `monitorEventLoopDelay`. Prints one JSON line: each request's status, input tokens, size and
 * the longest event-loop stall while it was served, and the long message's tokens counted at once.
 */
import { request } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { FakeProxy } from '../../../src/server/fake-proxy.js'
import { countTokens, prepareTokenCounter } from '../../../src/llm/tokens.js'
import { MESSAGE_FRAMING, REPLY_PRIMING } from '../../../src/wire/openai-chat/cache.js'

const proxy = await new FakeProxy().start()
const delay = monitorEventLoopDelay({ resolution: 10 })
const words = (n: number, seed: number): string => {
  let out = ''
  for (let i = 0; i < n; i++) out += `word${(i * 7919 + seed) % 5003} `
  return out
}

/** One ~7 MB string of varied words (a tokenizer's worst case is text it cannot merge). */
const text = words(700_000, 1)
/**
 * Posts `body` (bytes made beforehand, so the client's own work is a write, not an encoding)
 * and reads the JSON answer.
 */
function post(path: string, body: Buffer): Promise<{ status: number; json: { usage?: unknown; error?: unknown } }> {
  return new Promise((resolve, reject) => {
    const req = request(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const bodies: Record<string, [string, string]> = {
  chat: ['/v1/chat/completions', JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: text }] })],
  chatMany: ['/v1/chat/completions', JSON.stringify({ model: 'gpt-4o', messages: Array.from({ length: 7_000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: words(100, i) })) })],
  anthropicBlocks: [
    '/v1/messages',
    JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: Array.from({ length: 20_000 }, (_, i) => ({ type: 'text', text: words(35, i) })) }] }),
  ],
  responses: ['/v1/responses', JSON.stringify({ model: 'gpt-4o', input: Array.from({ length: 5_000 }, (_, i) => ({ role: 'user', content: [{ type: 'input_text', text: words(140, i) }] })) })],
}
const only = process.argv[2]
delay.enable()
// A first request loads the tokenizer: the stalls below are the requests' own.
await (await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'warm' }] }) })).text()
await (await fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'warm' }] }) })).text()
const results: Record<string, unknown> = {}
for (const [name, [path, text]] of Object.entries(bodies)) {
  if (only && only !== name) continue
  const body = Buffer.from(text)
  delay.reset()
  const started = performance.now()
  const { status, json } = await post(path, body)
  results[name] = { status, bytes: body.length, usage: json.usage, error: json.error, ms: Math.round(performance.now() - started), stallMs: delay.max / 1e6 }
}
delay.disable()
// The long message counted at once, with its message's framing and the reply's priming, for the
// test to compare with the count made in slices.
await prepareTokenCounter('gpt-4o')
if (results.chat) (results.chat as Record<string, unknown>).countedTokens = countTokens(text, 'gpt-4o') + MESSAGE_FRAMING + countTokens('user', 'gpt-4o') + REPLY_PRIMING
await proxy.close()
process.stdout.write(`${JSON.stringify(results)}\n`)
