/**
 * SPEC §24, headers first on every streamed route: JSON-array (Gemini), NDJSON (Ollama) and
 * event-stream (Bedrock) answers send their status and headers when the brain accepts the call,
 * before a `latency.firstChunkMs` wait, as SSE answers already did. The wait here is a minute:
 * the headers arriving at all while it runs shows they did not wait for it.
 */
import { request } from 'node:http'
import { afterEach, expect, test } from 'vitest'
import { scriptedLLM } from '../../src/llm/index.js'
import { FakeProxy } from '../../src/server/fake-proxy.js'

const open: FakeProxy[] = []
afterEach(async () => {
  for (const proxy of open.splice(0)) await proxy.close()
})

const routes = [
  ['gemini JSON array', '/v1beta/models/gemini-2.5-flash:streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, 'application/json'],
  ['ollama NDJSON', '/api/chat', { model: 'llama3', messages: [{ role: 'user', content: 'hi' }] }, 'application/x-ndjson'],
  ['bedrock event stream', '/model/anthropic.claude-3-haiku/converse-stream', { messages: [{ role: 'user', content: [{ text: 'hi' }] }] }, 'application/vnd.amazon.eventstream'],
] as const

test.each(routes)('%s: the headers arrive while the first chunk waits a minute', async (_name, path, body, type) => {
  const proxy = await new FakeProxy({ llm: scriptedLLM(['hello'], { latency: { firstChunkMs: 60_000 } }) }).start()
  open.push(proxy)
  const headers = await new Promise<{ status: number; type: string | undefined }>((resolve, reject) => {
    const req = request(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] })
      res.destroy()
    })
    req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)))
    req.end(JSON.stringify(body))
  })
  expect(headers).toEqual({ status: 200, type: expect.stringContaining(type) })
}, 30_000)
