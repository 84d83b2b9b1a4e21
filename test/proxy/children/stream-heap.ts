/**
 * Child process (run with --expose-gc): streams one long reply in 'chars' chunking from a
 * FakeProxy — over HTTP, or through `proxy.fetch` with `in-process` as second argument — to a
 * client reading the raw bytes, and prints the largest heap growth seen (after
 * a full GC) while the stream runs, as JSON on stdout.
 */
import { FakeProxy, prepareTokenCounter, scriptedLLM } from '../../../src/index.js'

const events = Number(process.argv[2] ?? 200_000)
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with --expose-gc')

const inProcess = process.argv[3] === 'in-process'
const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'x'.repeat(events) }, { chunking: 'chars' }) })
if (!inProcess) await proxy.start()
const send = inProcess ? proxy.fetch : fetch
// The answer's usage counts its text with gpt-5's tokenizer, whose tables (tens of MB) load once
// per process: loaded before the baseline, so what is measured is the stream's own growth.
await prepareTokenCounter('gpt-5')
gc()
const baseline = process.memoryUsage().heapUsed
let peak = 0
let received = 0
let nextSample = 4 * 1024 * 1024
const response = await send(`${inProcess ? 'http://fake' : proxy.url}/v1/chat/completions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ model: 'gpt-5', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
})
const reader = response.body!.getReader()
let tail = ''
for (;;) {
  const { done, value } = await reader.read()
  if (done) break
  received += value.length
  tail = Buffer.from(value).toString('latin1').slice(-32)
  if (received >= nextSample) {
    nextSample += 4 * 1024 * 1024
    gc()
    peak = Math.max(peak, process.memoryUsage().heapUsed - baseline)
  }
}
await proxy.close()
console.log(JSON.stringify({ events, received, peakGrowth: peak, ended: tail.includes('[DONE]') }))
