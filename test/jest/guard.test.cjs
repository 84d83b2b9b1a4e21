// The network guard of agent-doubles/jest/setup (installed at load, in this file's sandbox), and
// useFakeProxy({ interceptProviders: true }), with the real SDK clients at their default URLs.
const OpenAI = require('openai')
const { Anthropic } = require('@anthropic-ai/sdk')
const { useFakeProxy } = require('agent-doubles/jest')

const GUARD = Symbol.for('agent-doubles.network-guard')
const REAL_MODEL_CALL = 'AGENT_DOUBLES_REAL_MODEL_CALL'

// A safety net goes under the setup entry's guard (in place of the fetch it calls through to):
// it records every call, answers the provider hosts itself and lets only 127.0.0.1 through, so
// nothing here can reach a real provider even if the guard were broken.
const state = globalThis[GUARD]
const realFetch = state.original
const netCalls = []
const net = async (input, init) => {
  const request = new Request(input, init)
  netCalls.push(`${request.method} ${request.url}`)
  if (new URL(request.url).hostname === '127.0.0.1') return realFetch(input, init)
  return new Response(JSON.stringify({ object: 'list', data: [] }), { headers: { 'content-type': 'application/json' } })
}
state.original = net
afterAll(() => {
  state.original = realFetch
  if (globalThis.fetch === net) globalThis.fetch = realFetch
})

// Runs `build` with OPENAI_BASE_URL and ANTHROPIC_BASE_URL unset (clients then take their real,
// default URLs), putting both back before returning — inside the test, so the hooks that set
// them for useFakeProxy restore them in their own order.
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
afterEach(() => {
  delete process.env.AGENT_DOUBLES_ALLOW_REAL
  netCalls.length = 0
})

const moduleLevelClient = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))

describe('the guard of agent-doubles/jest/setup', () => {
  test('is installed on this file\'s globalThis.fetch from load', () => {
    expect(globalThis.fetch).toBe(state.guarded)
    expect(moduleLevelClient.baseURL).toBe('https://api.openai.com/v1')
  })

  test('a client built at module level fails at once with the guard error; nothing is sent', async () => {
    const error = await moduleLevelClient.chat.completions
      .create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e) => e)
    expect(error).toBeInstanceOf(OpenAI.APIConnectionError)
    expect(error.cause.code).toBe(REAL_MODEL_CALL)
    expect(error.cause.message).toMatch(/^\[agent-doubles\] A real model was called: POST https:\/\/api\.openai\.com\/v1\/chat\/completions\n/)
    expect(error.cause.message).toContain('AGENT_DOUBLES_ALLOW_REAL=1')
    expect(error.cause.message).toContain('useFakeProxy({ interceptProviders: true })')
    expect(netCalls).toEqual([])
  })

  test('an Anthropic client with the default base URL fails the same way', async () => {
    const client = withDefaultBaseUrls(() => new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 }))
    await expect(
      client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ cause: { code: REAL_MODEL_CALL, method: 'POST', url: 'https://api.anthropic.com/v1/messages' } })
    expect(netCalls).toEqual([])
  })

  test('AGENT_DOUBLES_ALLOW_REAL=1, set in the test, lets the request through to the original fetch', async () => {
    process.env.AGENT_DOUBLES_ALLOW_REAL = '1'
    const list = await moduleLevelClient.models.list()
    expect(list.data).toEqual([])
    expect(netCalls).toEqual(['GET https://api.openai.com/v1/models'])
  })
})

describe('useFakeProxy({ interceptProviders: true })', () => {
  const proxy = useFakeProxy({ interceptProviders: true })

  test('default-URL clients reach the fake proxy', async () => {
    const openai = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
    const anthropic = withDefaultBaseUrls(() => new Anthropic({ apiKey: 'sk-ant-test', maxRetries: 0 }))
    expect([openai.baseURL, anthropic.baseURL]).toEqual(['https://api.openai.com/v1', 'https://api.anthropic.com'])
    const completion = await openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
    expect(typeof completion.choices[0].message.content).toBe('string')
    expect(proxy).toHaveReceivedRequests(1)
    await anthropic.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(proxy).toHaveReceivedRequests(2)
    expect(proxy).toHaveReceivedRequest({ path: '/v1/messages' })
    expect(netCalls).toEqual([`POST ${proxy.url}/v1/chat/completions`, `POST ${proxy.url}/v1/messages`])
  })

  test('the module-level client is routed too: it holds the guarded fetch', async () => {
    await moduleLevelClient.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
    expect(proxy).toHaveReceivedRequests(1)
  })

  test('another provider host is still refused, saying only OpenAI and Anthropic can be routed', async () => {
    await expect(fetch('https://api.x.ai/v1/chat/completions', { method: 'POST', body: '{}' })).rejects.toThrow(
      'interceptProviders routes only api.openai.com and api.anthropic.com to the fake proxy; api.x.ai cannot be routed',
    )
    expect(netCalls).toEqual([])
    expect(proxy).toHaveReceivedRequests(0)
  })

  test('loopback requests pass untouched', async () => {
    const res = await fetch(`${proxy.url}/viper/v1/info`)
    expect((await res.json()).api_version).toBe(1)
    expect(netCalls).toEqual([`GET ${proxy.url}/viper/v1/info`])
  })
})

describe('useFakeProxy({ interceptProviders: false })', () => {
  const proxy = useFakeProxy({ interceptProviders: false })

  test('a default-URL client is refused, not routed', async () => {
    const client = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
    await expect(client.models.list()).rejects.toMatchObject({
      cause: { code: REAL_MODEL_CALL },
    })
    expect(proxy).toHaveReceivedRequests(0)
  })

  test('interceptProviders must be a boolean', () => {
    expect(() => useFakeProxy({ interceptProviders: 'yes' })).toThrow(
      '[agent-doubles] useFakeProxy: option interceptProviders must be a boolean, got "yes"',
    )
  })
})
