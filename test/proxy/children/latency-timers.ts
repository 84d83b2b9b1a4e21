/**
 * Child process: a stream whose first chunk waits a minute (`latency.firstChunkMs`) is left
 * two ways — the client aborts it, or the proxy is closed under it — and the timers still
 * active afterwards are printed as JSON. A timer left behind would also keep this process
 * alive for that minute.
 */
import OpenAI from 'openai'
import { FakeProxy, scriptedLLM } from '../../../src/index.js'

const how = process.argv[2] as 'abort' | 'close'
const llm = scriptedLLM({ hello: 'hi there' }, { latency: { firstChunkMs: 60_000 } })
const proxy = await new FakeProxy({ llm }).start()
const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
const controller = new AbortController()
const order: string[] = []

const { data: stream, response } = await client.chat.completions
  .create({ model: 'gpt-5', stream: true, messages: [{ role: 'user', content: 'hello' }] }, { signal: controller.signal })
  .withResponse()
order.push(`headers ${response.status} ${response.headers.get('content-type')}`)
const reading = (async () => {
  try {
    for await (const _ of stream) order.push('chunk')
    order.push('end')
  } catch (error) {
    order.push(`error ${(error as Error).name}`)
  }
})()
// Let the request reach the brain's wait before leaving.
await new Promise((resolve) => setImmediate(resolve))
if (how === 'abort') controller.abort()
else await proxy.close()
await reading
await proxy.close()
// Give the server a turn to see the connection close.
for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
const timers = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout')
console.log(JSON.stringify({ order, timers: timers.length, records: proxy.requests.length }))
