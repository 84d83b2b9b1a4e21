// useFakeProxy with the real openai client, and the matchers that read the proxy.
const OpenAI = require('openai')
const { ProxyClient, proxyError } = require('agent-doubles')
const { useFakeProxy, scriptedLLM } = require('agent-doubles/jest')

const proxy = useFakeProxy({ agents: ['researcher'] })
let firstUrl

function clientFor(agent) {
  const binding = new ProxyClient(proxy.url).agent(agent, { model: 'gpt-5' })
  return new OpenAI({ apiKey: 'test', maxRetries: 0, ...binding.openai() })
}

test('the returned proxy is started before the tests and new OpenAI() reaches it', async () => {
  firstUrl = proxy.url
  expect(process.env.OPENAI_BASE_URL).toBe(`${proxy.url}/v1`)
  const client = new OpenAI({ apiKey: 'test', maxRetries: 0 })
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
  expect(typeof completion.choices[0].message.content).toBe('string')
  expect(proxy).toHaveReceivedRequests(1)
  expect(proxy).toHaveBeenCalledWithTask('hi')
  expect(proxy).toHaveReceivedRequest({ path: '/v1/chat/completions', model: 'gpt-5' })
})

test('it is reset after each test and keeps its port', async () => {
  expect(proxy.url).toBe(firstUrl)
  expect(proxy).toHaveReceivedRequests(0)
})

test('agent identity and a scripted brain', async () => {
  proxy.use(scriptedLLM({ weather: 'sunny in Paris' }))
  const completion = await clientFor('researcher').chat.completions.create({
    model: 'gpt-5',
    messages: [{ role: 'user', content: 'weather in Paris?' }],
  })
  expect(completion.choices[0].message.content).toBe('sunny in Paris')
  expect(proxy).toHaveReceivedRequest({ agent: 'researcher', request: { model: 'gpt-5' } })
  expect(proxy).toHaveReceivedRequest({ agent: expect.stringMatching(/^res/) })
  expect(proxy).not.toHaveReceivedRequest({ agent: 'critic' })
  expect(proxy).toHaveRegisteredDefinition('researcher', { model: 'gpt-5' })
  expect(proxy).toHaveBeenLastCalledWithTask(expect.stringContaining('Paris'))
})

test('refusals: on the proxy and on the error the client threw', async () => {
  const client = clientFor('researcher')
  proxy.refuse('policy_denied')
  const call = client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
  await expect(call).rejects.toHaveRefusedWith('policy_denied')
  await expect(call).rejects.not.toHaveRefusedWith('rate_limited')
  const error = await call.catch((err) => err)
  expect(proxyError(error).status).toBe(403)
  expect(proxy).toHaveRefusedWith('policy_denied', { times: 1, agent: 'researcher' })
  expect(proxy).not.toHaveRefusedWith('agent_unknown')
  expect(() => expect(proxy).toHaveRefusedWith('rate_limited')).toThrow(/Received refusals:\n.*1st refusal: "policy_denied" \(403\)/)
})

test('an unknown agent is refused', async () => {
  // Through ProxyClient the refusal comes from registering the definition…
  await expect(clientFor('intruder').chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).rejects.toHaveRefusedWith('agent_unknown')
  // …and a model request naming the agent is refused and recorded.
  const client = new OpenAI({ apiKey: 'test', maxRetries: 0, defaultHeaders: { 'x-viper-agent': 'intruder' } })
  await expect(client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).rejects.toHaveRefusedWith('agent_unknown')
  expect(proxy).toHaveRefusedWith('agent_unknown', { agent: 'intruder', times: 1 })
})
