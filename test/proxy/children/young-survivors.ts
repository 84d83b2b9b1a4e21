/**
 * Child process (--expose-gc): how much of the old generation streamed answers leave behind when
 * only young-generation GCs run — what a test process full of requests pays for in copying and
 * in full GCs later. The answers' records are cleared after each one, so nothing the proxy means
 * to keep is counted. Answers go through a kept-alive socket, as the SDKs send them. Prints JSON.
 */
import { request, Agent } from 'node:http'
import { FakeProxy, scriptedLLM } from '../../../src/index.js'
import { collectGarbage, oldSpaceUsed } from '../../child-figures.js'

const count = Number(process.argv[2] ?? 300)
const reply = Array.from({ length: 48 }, (_, i) => `w${i}`).join(' ')
const proxy = await new FakeProxy({ llm: scriptedLLM({ stream: reply }) }).start()
const agent = new Agent({ keepAlive: true, maxSockets: 1 })
const body = JSON.stringify({ model: 'claude-x', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'stream please' }] })
const { port } = new URL(proxy.url)

function streamed(): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, path: '/v1/messages', method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' } }, (answer) => {
      let bytes = 0
      answer.on('data', (chunk: Buffer) => (bytes += chunk.length))
      answer.on('end', () => resolve(bytes))
    })
    sent.on('error', reject)
    sent.end(body)
  })
}


// Warm up (JIT, lazily made structures), then measure from a clean slate.
for (let i = 0; i < 200; i++) await streamed()
proxy.reset()
collectGarbage()
const before = oldSpaceUsed()
let received = 0
for (let i = 0; i < count; i++) {
  received += await streamed()
  proxy.reset()
}
collectGarbage({ type: 'minor' })
collectGarbage({ type: 'minor' })
const keptPerAnswer = (oldSpaceUsed() - before) / count
agent.destroy()
await proxy.close()
console.log(JSON.stringify({ received, keptPerAnswer }))
