// The network guard of agent-doubles/jest/setup (installed at load, in this file's sandbox), and
// useFakeProxy({ interceptProviders: true }), with real clients built at module level — before
// any route — at their default URLs. Jest runs this file in a vm sandbox whose fetch belongs to
// the main realm: the guard hooks the main realm's dispatcher (which that fetch runs on), this
// sandbox's own (which its copy of undici runs on), and node:http(s).
const http = require('node:http')
const https = require('node:https')
const OpenAI = require('openai')
const { Anthropic } = require('@anthropic-ai/sdk')
const { openai } = require('@ai-sdk/openai')
const { generateText } = require('ai')
const undici = require('undici')
const { useFakeProxy } = require('agent-doubles/jest')

const REAL_MODEL_CALL = 'AGENT_DOUBLES_REAL_MODEL_CALL'
const messages = [{ role: 'user', content: 'hi' }]

// Runs `build` with OPENAI_BASE_URL and ANTHROPIC_BASE_URL unset (clients then take their real,
// default URLs), putting both back before returning.
function withDefaultBaseUrls(build) {
  const saved = { OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL }
  for (const name of Object.keys(saved)) delete process.env[name]
  try {
    return build()
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

const moduleLevelClient = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
const moduleLevelAnthropic = withDefaultBaseUrls(() => new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 }))

// Every name resolves to 127.0.0.1: a node:http request that got past the guard stays here.
const lookups = []
function lookup(hostname, options, callback) {
  lookups.push(hostname)
  if (options && options.all) callback(null, [{ address: '127.0.0.1', family: 4 }])
  else callback(null, '127.0.0.1', 4)
}

function send(fn, url, options, body) {
  return new Promise((resolve, reject) => {
    const req = fn(url, options, (res) => {
      const chunks = []
      res.on('data', (chunk) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }))
    })
    req.on('error', reject)
    if (!req.writableEnded) req.end(body)
  })
}

const savedKey = process.env.OPENAI_API_KEY
beforeAll(() => {
  process.env.OPENAI_API_KEY = 'sk-test' // the AI SDK provider reads it at each call
})
afterAll(() => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY
  else process.env.OPENAI_API_KEY = savedKey
})
afterEach(() => {
  delete process.env.AGENT_DOUBLES_ALLOW_REAL
  lookups.length = 0
})

// Lists each attempt a client makes through it (a retry is another attempt).
function countingFetch(sent) {
  return (url, init) => {
    sent.push(String(url))
    return fetch(url, init)
  }
}

describe('the guard of agent-doubles/jest/setup', () => {
  test('a fetch captured before the setup ran — the main realm\'s own — is guarded below it too: answered 421, nothing sent', async () => {
    const mainRealmFetch = require('node:vm').runInThisContext('fetch')
    expect(globalThis.fetch).not.toBe(mainRealmFetch)
    const response = await mainRealmFetch('https://api.openai.com/v1/models')
    expect(response.status).toBe(421)
    expect(response.headers.get('x-should-retry')).toBe('false')
    const body = await response.json()
    expect(body.error.code).toBe(REAL_MODEL_CALL)
    expect(body.message).toMatch(/^\[agent-doubles\] A real model was called: GET https:\/\/api\.openai\.com\/v1\/models\nNo fake proxy is active in this test/)
  })

  test('a client built at module level is answered 421 with the guard message', async () => {
    expect(moduleLevelClient.baseURL).toBe('https://api.openai.com/v1')
    const error = await moduleLevelClient.chat.completions.create({ model: 'gpt-5', messages }).catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.APIError)
    expect(error).toMatchObject({ status: 421, code: REAL_MODEL_CALL })
    expect(error.message).toMatch(/^421 \[agent-doubles\] A real model was called: POST https:\/\/api\.openai\.com\/v1\/chat\/completions\nNo fake proxy is active in this test/)
    expect(error.message).toContain('AGENT_DOUBLES_ALLOW_REAL=1')
    expect(error.message).toContain('useFakeProxy()')
  })

  test('the real openai client, default retries on, makes one request, and is told no fake proxy is active and how to get one', async () => {
    const sent = []
    const client = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', fetch: countingFetch(sent) }))
    expect(client.maxRetries).toBe(2)
    const error = await client.chat.completions.create({ model: 'gpt-5', messages }).catch((e) => e)
    expect(sent).toEqual(['https://api.openai.com/v1/chat/completions'])
    expect(error).toMatchObject({ status: 421, code: REAL_MODEL_CALL })
    expect(error.message).toContain('No fake proxy is active in this test')
    expect(error.message).toContain('answered 421 (x-should-retry: false) so the client does not retry')
    expect(error.message).toContain("Jest: const proxy = useFakeProxy() (from 'agent-doubles/jest')")
  })

  test('the real Anthropic client, default retries on, makes one request too', async () => {
    const sent = []
    const client = withDefaultBaseUrls(() => new Anthropic({ apiKey: 'sk-ant-test', fetch: countingFetch(sent) }))
    expect(client.maxRetries).toBe(2)
    const error = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages }).catch((e) => e)
    expect(sent).toEqual(['https://api.anthropic.com/v1/messages'])
    expect(error).toBeInstanceOf(Anthropic.APIError)
    expect(error.status).toBe(421)
    expect(error.message).toMatch(/^421 \[agent-doubles\] A real model was called: POST https:\/\/api\.anthropic\.com\/v1\/messages\nNo fake proxy is active in this test/)
  })

  test('the module-level AI SDK provider, undici.request and https.request are answered 421 too, nothing sent', async () => {
    await expect(generateText({ model: openai('gpt-5'), prompt: 'hi', maxRetries: 0 })).rejects.toThrow(
      'A real model was called: POST https://api.openai.com/v1/responses',
    )
    const response = await undici.request('https://api.anthropic.com/v1/messages', { method: 'POST', body: '{}' })
    expect(response.statusCode).toBe(421)
    expect((await response.body.json()).error).toMatchObject({ code: REAL_MODEL_CALL })
    const sent = await send(https.request, 'https://api.openai.com/v1/models', { lookup })
    expect(sent.status).toBe(421)
    expect(JSON.parse(sent.body).message).toContain('No fake proxy is active in this test')
    expect(lookups).toEqual([])
  })

  test('AGENT_DOUBLES_ALLOW_REAL=1, set in the test, lets a request through', async () => {
    const server = http.createServer((req, res) => res.end(`reached ${req.headers.host}${req.url}`))
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = server.address().port
      expect((await send(http.get, `http://api.openai.com:${port}/v1/models`, { lookup })).status).toBe(421)
      expect(lookups).toEqual([])
      process.env.AGENT_DOUBLES_ALLOW_REAL = '1'
      const sent = await send(http.get, `http://api.openai.com:${port}/v1/models`, { lookup })
      expect(sent.body).toBe(`reached api.openai.com:${port}/v1/models`)
      expect(lookups).toEqual(['api.openai.com'])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('useFakeProxy({ interceptProviders: true })', () => {
  const proxy = useFakeProxy({ interceptProviders: true })

  test('clients built at module level, before the route, reach the fake', async () => {
    const completion = await moduleLevelClient.chat.completions.create({ model: 'gpt-5', messages })
    expect(typeof completion.choices[0].message.content).toBe('string')
    await moduleLevelAnthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages })
    await generateText({ model: openai('gpt-5'), prompt: 'hi', maxRetries: 0 })
    expect(proxy.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/messages', '/v1/responses'])
  })

  test('undici.request, undici.fetch, https.request and a URL-like object reach the fake', async () => {
    const response = await undici.request('https://api.openai.com/v1/models')
    expect(response.statusCode).toBe(200)
    await response.body.dump()
    expect((await undici.fetch('https://api.openai.com/v1/models')).status).toBe(200)
    const sent = await send(https.request, 'https://api.openai.com/v1/models', { lookup })
    expect(JSON.parse(sent.body).object).toBe('list')
    expect((await fetch({ toString: () => 'https://api.openai.com/v1/models' })).status).toBe(200)
    // Model lists are side requests (SPEC §17): counted when asked for.
    expect(proxy).toHaveReceivedRequests(4, { includeSide: true })
    expect(lookups).toEqual([])
  })

  test('a provider API the fake does not serve is still refused, saying so', async () => {
    const error = await fetch('https://api.cohere.com/v2/chat', { method: 'POST', body: '{}' }).catch((e) => e)
    expect(error.cause.message).toContain('The route to the fake proxy (interceptProviders) has no target for api.cohere.com/v2/chat')
    expect(proxy).toHaveReceivedRequests(0)
  })

  test('loopback requests pass untouched', async () => {
    const res = await fetch(`${proxy.url}/viper/v1/info`)
    expect((await res.json()).api_version).toBe(1)
  })
})

describe('useFakeProxy({ interceptProviders: false })', () => {
  const proxy = useFakeProxy({ interceptProviders: false })

  test('a default-URL client is refused, not routed: answered 421 naming the active fake', async () => {
    const client = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
    const error = await client.models.list().catch((e) => e)
    expect(error).toMatchObject({ status: 421, code: REAL_MODEL_CALL })
    expect(error.message).toContain(`A fake proxy is active in this test (${proxy.url}), but this client does not point at it`)
    expect(proxy).toHaveReceivedRequests(0)
  })

  test('interceptProviders must be a boolean', () => {
    expect(() => useFakeProxy({ interceptProviders: 'yes' })).toThrow(
      '[agent-doubles] useFakeProxy: option interceptProviders must be a boolean, got "yes"',
    )
  })
})
