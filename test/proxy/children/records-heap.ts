/**
 * Child process (--expose-gc): what a FakeProxy with a ScriptedLLM holds per request, beyond
 * the request and response bodies, and what is left after `proxy.reset()`. Prints JSON.
 */
import { FakeProxy, scriptedLLM } from '../../../src/index.js'

const count = Number(process.argv[2] ?? 5000)
const gc = (globalThis as { gc?: () => void }).gc!
const proxy = new FakeProxy({ llm: scriptedLLM({ hello: 'hi there, how can I help you today?' }) })
const body = JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello, can you help me plan a trip to Paris?' }] })
const call = async (): Promise<number> => {
  const answer = await proxy.fetch('http://fake/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body })
  return (await answer.arrayBuffer()).byteLength
}
// Warm up (JIT, lazily made structures), then measure from a clean slate.
for (let i = 0; i < 200; i++) await call()
proxy.reset()
gc()
const before = process.memoryUsage().heapUsed
let answered = 0
for (let i = 0; i < count; i++) answered += await call()
gc()
const held = process.memoryUsage().heapUsed - before
proxy.reset()
gc()
const afterReset = process.memoryUsage().heapUsed - before
const bodies = Buffer.byteLength(body) + answered / count
// What reset() frees is what the records held; what it leaves (compiled code, caches) is a fixed
// amount that would be charged to each request as 1/count of it.
const recordsPerRequest = (held - afterReset) / count
console.log(
  JSON.stringify({
    perRequest: held / count,
    bodies,
    beyondBodies: held / count - bodies,
    recordsPerRequest,
    recordsBeyondBodies: recordsPerRequest - bodies,
    afterResetPerRequest: afterReset / count,
    afterResetBytes: afterReset,
  }),
)
