// useFakeProxy with the real openai and Anthropic clients, reached through the environment.
// The driver runs this with --detectOpenHandles and checks Jest exits by itself.
const OpenAI = require('openai')
const Anthropic = require('@anthropic-ai/sdk')
const { mockAgent, useFakeProxy } = require('agent-doubles/jest')

const proxy = useFakeProxy({ agents: ['researcher'] })
const researcher = mockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher' })

test('runs on the Node major the driver asked for', () => {
  expect(process.version.startsWith(`v${process.env.E2E_NODE}.`)).toBe(true)
})

test('new OpenAI() reaches the proxy through OPENAI_BASE_URL', async () => {
  expect(process.env.OPENAI_BASE_URL).toBe(`${proxy.url}/v1`)
  const client = new OpenAI({ apiKey: 'test', maxRetries: 0 })
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello jest' }] })
  expect(typeof completion.choices[0].message.content).toBe('string')
  expect(proxy).toHaveReceivedRequests(1)
  expect(proxy).toHaveBeenCalledWithTask('hello jest')
})

test('a streamed answer through new Anthropic() leaves no socket behind', async () => {
  expect(proxy).toHaveReceivedRequests(0)
  const client = new Anthropic({ apiKey: 'test', maxRetries: 0 })
  const stream = client.messages.stream({ model: 'claude-e2e', max_tokens: 64, messages: [{ role: 'user', content: 'stream please' }] })
  const message = await stream.finalMessage()
  expect(message.content[0].type).toBe('text')
  expect(proxy).toHaveReceivedRequest({ path: '/v1/messages' })
})

test('a module-scope mockAgent called in one test…', async () => {
  await researcher('weather today')
  expect(researcher).toHaveBeenCalledWithTask('weather today')
})

test('…has no calls in the next', () => {
  expect(researcher.calls).toEqual([])
  expect(researcher).toHaveBeenCalledTimes(0)
})
