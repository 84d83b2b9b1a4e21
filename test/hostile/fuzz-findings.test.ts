/**
 * What the fuzz pass (fuzz.test.ts) found, each kept as a request of its own: each was a 500
 * (a crash of the fake) or a rejected request left out of the records.
 */
import { afterEach, expect, test } from 'vitest'
import { FakeProxy } from '../../src/server/fake-proxy.js'

const open: FakeProxy[] = []
afterEach(async () => {
  for (const proxy of open.splice(0)) await proxy.close()
})

async function post(path: string, body: unknown, options: ConstructorParameters<typeof FakeProxy>[0] = {}): Promise<{ proxy: FakeProxy; status: number; json: Record<string, unknown> }> {
  const proxy = await new FakeProxy(options).start()
  open.push(proxy)
  const res = await fetch(`${proxy.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { proxy, status: res.status, json: (await res.json()) as Record<string, unknown> }
}

test('Responses: an input message with `content: []` is counted as an empty message, not a crash', async () => {
  const { proxy, status } = await post('/v1/responses', { model: 'gpt-5', input: [{ role: 'user', content: [] }, { role: 'user', content: 'hi' }] })
  expect(status).toBe(200)
  expect(proxy.requests[0].status).toBeUndefined()
})

test('Vertex Anthropic: a body without anthropic_version is a 400 in Anthropic’s shape, and recorded', async () => {
  const path = '/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4:rawPredict'
  const { proxy, status, json } = await post(path, { anthropic_version: { then: 1 }, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] })
  expect(status).toBe(400)
  expect(json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic_version: Field required' } })
  expect(proxy.requests).toHaveLength(1)
  expect(proxy.requests[0]).toMatchObject({ status: 400, error: { param: 'anthropic_version' } })
})
