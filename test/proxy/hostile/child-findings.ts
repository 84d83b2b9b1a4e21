/**
 * Run in a child process by findings.test.ts: the requests of issue 8 that once crashed the
 * proxy, blocked its event loop for a minute or answered 500. Prints one JSON line: each
 * request's status and error body, and whether the proxy still served afterwards.
 */
import { FakeProxy } from '../../../src/server/fake-proxy.js'

const proxy = await new FakeProxy().start()
const post = async (path: string, body: string): Promise<{ status: number; body: unknown }> => {
  const res = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: res.status, body: await res.json() }
}
const deep = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels)
const user = { role: 'user', content: 'hi' }

// Bodies are built before the first request, so the requests go out back to back.
const bodies = {
  nestedChat: ['/v1/chat/completions', `{"model":"m","messages":[${JSON.stringify(user)}],"metadata":${deep(10_000)}}`],
  nestedAnthropic: ['/v1/messages', `{"model":"c","max_tokens":5,"messages":${deep(10_000)}}`],
  objectIdAnthropic: [
    '/v1/messages',
    JSON.stringify({ model: 'c', max_tokens: 5, messages: [user, { role: 'assistant', content: [{ type: 'tool_use', id: { toString: 1 }, name: 'x', input: {} }] }] }),
  ],
  embeddings8192: ['/v1/embeddings', JSON.stringify({ model: 'e', dimensions: 8192, input: 'a'.repeat(2_000_000) })],
  embeddings30MB: ['/v1/embeddings', JSON.stringify({ model: 'e', input: 'a'.repeat(30_000_000) })],
  stillServes: ['/v1/chat/completions', JSON.stringify({ model: 'm', messages: [user] })],
}
const results: Record<string, unknown> = {}
for (const [name, [path, body]] of Object.entries(bodies)) results[name] = await post(path, body)
await proxy.close()
process.stdout.write(`${JSON.stringify(results)}\n`)
