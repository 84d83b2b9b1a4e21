// Provider errors under Jest, against the build: a 429 the SDK retries, and a timeout that
// holds a request open until the client gives up or close() ends it, leaving no handle behind
// (--detectOpenHandles).
const OpenAI = require('openai')
const { FakeProxy, providerError, scriptedLLM } = require('agent-doubles')

let proxy
beforeAll(async () => {
  proxy = await new FakeProxy().start()
})
afterAll(() => proxy.close())
afterEach(() => proxy.reset())

const ask = (client) => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })

test('a planned rate_limit is retried by the SDK, then answered', async () => {
  proxy.providerError('rate_limit')
  const completion = await ask(new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 1 }))
  expect(completion.choices[0].message.content).toBe('Hello from FakeProxy.')
  expect(proxy.requests.map((r) => r.status ?? 200)).toEqual([429, 200])
})

test('a scripted provider error answers as the provider does', async () => {
  proxy.use(scriptedLLM([providerError('invalid_api_key')]))
  await expect(ask(new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 }))).rejects.toBeInstanceOf(OpenAI.AuthenticationError)
})

test('timeout: the client gives up; a second one is ended by close()', async () => {
  proxy.providerError('timeout', { times: 2 })
  const impatient = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0, timeout: 100 })
  // Under Jest the SDK reports its own timeout as a connection error (the abort crosses realms).
  await expect(ask(impatient)).rejects.toBeInstanceOf(OpenAI.APIConnectionError)
  const patient = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const pending = ask(patient).catch((error) => error)
  while (proxy.requests.length < 2) await new Promise((resolve) => setImmediate(resolve))
  await proxy.close()
  expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError)
  await proxy.start()
})
