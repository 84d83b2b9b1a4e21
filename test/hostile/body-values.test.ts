/**
 * The bound on a request body's JSON values (SPEC §24; src/server/body-values.ts): a body at the
 * bound is read as usual, one value over it gets the route's own 400 before it is parsed — the
 * same shape as the route's 400 for a body that is not JSON, with a message naming the count, the
 * bound and the option — and is recorded. Small bodies (counted at once) and large ones (counted
 * in the sliced scan) alike; the default (600,000), the command-line flag, and a WebSocket event.
 */
import { describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { serve } from '../../src/cli/serve.js'
import { FakeProxy } from '../../src/index.js'
import { DEFAULT_MAX_BODY_VALUES, countValues } from '../../src/server/body-values.js'
import { LoopSlices } from '../../src/internal/scheduling.js'
import { LARGE_BODY } from '../../src/server/large-body.js'
import { scanLarge } from '../../src/server/sliced-json.js'

const encode = (text: string): Uint8Array => new TextEncoder().encode(text)

/** The values of a parsed JSON value: itself, and those of its elements or members (keys are not values). */
function valuesOf(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + valuesOf(item), 1)
  if (value && typeof value === 'object') return Object.values(value).reduce((sum: number, item) => sum + valuesOf(item), 1)
  return 1
}

/** A body's JSON with every string and number replaced by its type: what a route's error shape is. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item)]))
  return typeof value
}

const words = (n: number): { role: string; content: string }[] => Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'w' }))

/** Each dialect's route with a body of `n` one-word messages. */
const routes: { dialect: string; path: string; body: (n: number) => unknown }[] = [
  { dialect: 'openai-chat', path: '/v1/chat/completions', body: (n) => ({ model: 'my-model', messages: words(n) }) },
  { dialect: 'openai-responses', path: '/v1/responses', body: (n) => ({ model: 'my-model', input: words(n) }) },
  { dialect: 'anthropic-messages', path: '/v1/messages', body: (n) => ({ model: 'my-model', max_tokens: 10, messages: words(n) }) },
  { dialect: 'gemini-generate', path: '/v1beta/models/my-model:generateContent', body: (n) => ({ contents: words(n).map(({ role, content }) => ({ role: role === 'assistant' ? 'model' : role, parts: [{ text: content }] })) }) },
  { dialect: 'bedrock-converse', path: '/model/my-model/converse', body: (n) => ({ messages: words(n).map(({ role, content }) => ({ role, content: [{ text: content }] })) }) },
  { dialect: 'bedrock-invoke', path: '/model/anthropic.claude-3-haiku/invoke', body: (n) => ({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, messages: words(n) }) },
  { dialect: 'ollama-chat', path: '/api/chat', body: (n) => ({ model: 'my-model', stream: false, messages: words(n) }) },
  { dialect: 'ollama-generate', path: '/api/generate', body: (n) => ({ model: 'my-model', stream: false, prompt: 'w', images: Array.from({ length: n }, () => 'AA==') }) },
]

async function post(url: string, path: string, body: Uint8Array | string): Promise<{ status: number; type: string | null; json: unknown }> {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: res.status, type: res.headers.get('content-type'), json: await res.json() }
}

const over = (count: number, max: number): RegExp => new RegExp(`request body holds ${count} JSON values, more than the ${max} allowed \\(maxBodyValues\\).*new FakeProxy\\(\\{ maxBodyValues \\}\\)`)

describe('counting', () => {
  const texts = ['{}', '[]', '0', '"a,b"', ' { "a" : [ 1 , 2 , { } , [ ] ] , "b" : "x,y[]{}\\"\\\\" , "c" : [ ] , "d" : null } ', '[[[]],[{"":{}}],true,false,-1.5e3]', '{"a":"\\u005b,"}']
  test.each(texts)('%s: the small count and the sliced scan both count each value once, keys not counted', async (text) => {
    const expected = valuesOf(JSON.parse(text))
    expect(countValues(encode(text))).toBe(expected)
    const scan = await scanLarge(encode(text), 512, new LoopSlices())
    expect(scan).toMatchObject({ deep: false, values: expected })
  })
})

describe.each(routes)('$dialect', ({ dialect, path, body }) => {
  test('a body at the bound is read; one value more gets the route’s 400 (the shape of its not-JSON 400), recorded', async () => {
    const small = encode(JSON.stringify(body(3)))
    const bigger = encode(JSON.stringify(body(4)))
    const max = countValues(small)
    expect(countValues(bigger)).toBeGreaterThan(max)
    await using proxy = await new FakeProxy({ maxBodyValues: max, tokens: 'estimate' }).start()

    const atBound = await post(proxy.url, path, small)
    expect(atBound.status).toBe(200)
    const refused = await post(proxy.url, path, bigger)
    const notJson = await post(proxy.url, path, '{"model": ')
    expect([refused.status, notJson.status]).toEqual([400, 400])
    expect(JSON.stringify(refused.json)).toMatch(over(countValues(bigger), max))
    expect(shapeOf(refused.json)).toEqual(shapeOf(notJson.json))
    expect(refused.type).toBe(notJson.type)

    // Recorded like a rejected request; the body that is not JSON is not (it holds no request).
    expect(proxy.requests).toHaveLength(2)
    const record = proxy.requests[1]
    expect(record).toMatchObject({ dialect, path, status: 400, json: null, request: { messages: [] } })
    expect(record.error?.message).toMatch(over(countValues(bigger), max))
    expect(Buffer.from(record.body).equals(Buffer.from(bigger))).toBe(true)
  })
})

test('a large body (1 MiB or more) is counted in the sliced scan: at the bound it is read, one value over it is refused', async () => {
  const long = 'w '.repeat(LARGE_BODY / 2)
  const body = (n: number): Uint8Array => encode(JSON.stringify({ model: 'my-model', messages: [{ role: 'user', content: long }, ...words(n)] }))
  const max = countValues(body(10))
  await using proxy = await new FakeProxy({ maxBodyValues: max, tokens: 'estimate' }).start()
  expect(body(10).byteLength).toBeGreaterThan(LARGE_BODY)
  expect((await post(proxy.url, '/v1/chat/completions', body(10))).status).toBe(200)
  const refused = await post(proxy.url, '/v1/chat/completions', body(11))
  expect(refused.status).toBe(400)
  expect(JSON.stringify(refused.json)).toMatch(over(max + 3, max))
  expect(proxy.requests.map((request) => request.status)).toEqual([undefined, 400])
})

test(`by default a body of ${DEFAULT_MAX_BODY_VALUES} values is read, and one of ${DEFAULT_MAX_BODY_VALUES + 1} is refused`, async () => {
  await using proxy = await new FakeProxy({ tokens: 'estimate' }).start()
  // `stop` is read only once the bound has let the body through: then the validator refuses it.
  const body = (values: number): string => JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stop: new Array(values - 7).fill(0) })
  expect(countValues(encode(body(DEFAULT_MAX_BODY_VALUES)))).toBe(DEFAULT_MAX_BODY_VALUES)
  const atBound = await post(proxy.url, '/v1/chat/completions', body(DEFAULT_MAX_BODY_VALUES))
  expect(JSON.stringify(atBound.json)).not.toContain('maxBodyValues')
  const refused = await post(proxy.url, '/v1/chat/completions', body(DEFAULT_MAX_BODY_VALUES + 1))
  expect(refused.status).toBe(400)
  expect(JSON.stringify(refused.json)).toMatch(over(DEFAULT_MAX_BODY_VALUES + 1, DEFAULT_MAX_BODY_VALUES))
})

test('maxBodyValues must be a positive integer: a TypeError naming the option and the value', () => {
  for (const bad of [0, -1, 1.5, '10', Number.POSITIVE_INFINITY]) {
    expect(() => new FakeProxy({ maxBodyValues: bad as number })).toThrow(TypeError)
    expect(() => new FakeProxy({ maxBodyValues: bad as number })).toThrow(/maxBodyValues/)
  }
})

test('agent-doubles serve --max-body-values N sets the bound; a value that is not a positive whole number is a usage error', async () => {
  const proxy = await serve(['serve', '--max-body-values', '6'], () => {})
  try {
    const six = '{"model":"m","messages":[{"role":"user","content":"hi"}]}'
    expect(countValues(encode(six))).toBe(6)
    expect((await post(proxy!.url, '/v1/chat/completions', six)).status).toBe(200)
    const nine = '{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"user","content":"hi"}]}'
    const refused = await post(proxy!.url, '/v1/chat/completions', nine)
    expect(JSON.stringify(refused.json)).toMatch(over(9, 6))
  } finally {
    await proxy?.close()
  }
  await expect(serve(['serve', '--max-body-values', 'many'], () => {})).rejects.toThrow(/--max-body-values must be a positive whole number, got "many"/)
  await expect(serve(['serve', '--max-body-values', '0'], () => {})).rejects.toThrow(/--max-body-values must be a positive whole number, got "0"/)
})

test('a WebSocket event of more values than the bound gets the API’s error event before it is parsed, and the session keeps serving', async () => {
  await using proxy = await new FakeProxy({ maxBodyValues: 40, tokens: 'estimate' }).start()
  const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/v1/responses`)
  const events: Record<string, unknown>[] = []
  const waiters: (() => void)[] = []
  ws.on('message', (data) => {
    events.push(JSON.parse(String(data)) as Record<string, unknown>)
    for (const wake of waiters.splice(0)) wake()
  })
  const next = async (type: string): Promise<Record<string, unknown>> => {
    for (;;) {
      const found = events.find((event) => event.type === type)
      if (found) return found
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  const create = (n: number): string => JSON.stringify({ type: 'response.create', model: 'my-model', input: words(n) })
  expect(countValues(encode(create(13)))).toBeGreaterThan(40)
  ws.send(create(13))
  const error = await next('error')
  expect(error).toMatchObject({ error: { code: 'invalid_value', message: expect.stringMatching(/^The server refused the event: it holds \d+ JSON values, more than the 40 allowed \(maxBodyValues\)/) } })
  ws.send(create(2))
  expect(await next('response.completed')).toMatchObject({ response: { status: 'completed' } })
  ws.close()
})
