// The agent-doubles matchers under Jest: pass, .not, asymmetric use, and their failure messages.
const { mockAgent, scriptedLLM, toolCall, Envelope, ErrorInfo } = require('agent-doubles')

function failureOf(assertion) {
  try {
    assertion()
  } catch (error) {
    return error.message.replace(/\u001b\[[0-9;]*m/g, '')
  }
  throw new Error('expected the assertion to fail')
}

const user = (text) => ({ model: 'mock', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text }] }] })

test('task matchers on a MockAgent, with .not and asymmetric matchers', async () => {
  const researcher = mockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher', inputTokens: 50, outputTokens: 30 })
  const env = await researcher('weather today')
  await researcher('market')
  expect(researcher).toHaveBeenCalledWithTask('weather today')
  expect(researcher).toHaveBeenNthCalledWithTask(2, 'market')
  expect(researcher).toHaveBeenLastCalledWithTask(expect.stringMatching(/^mar/))
  expect(researcher).not.toHaveBeenCalledWithTask('news')
  expect({ agent: researcher }).toEqual({ agent: expect.toHaveBeenCalledWithTask('market') })
  expect({ agent: researcher }).toEqual({ agent: expect.not.toHaveBeenCalledWithTask('news') })
  expect(env).toHaveText('sunny')
  expect(env).toHaveUsage({ inputTokens: 50, outputTokens: expect.any(Number) })
  expect(env).not.toBeErrorEnvelope()
  expect([env]).toEqual([expect.toHaveText('sunny')])
  const message = failureOf(() => expect(researcher).toHaveBeenCalledWithTask('news'))
  expect(message).toContain('1st researcher call: "weather today"')
  expect(message).toContain('2nd researcher call: "market"')
  expect(message).toContain('Number of calls: 2')
})

test('error envelopes', () => {
  const failed = Envelope.fromError(new ErrorInfo({ type: 'RateLimit', message: 'slow down', retryable: true }))
  expect(failed).toBeErrorEnvelope({ type: 'RateLimit', retryable: true })
  expect(failed).not.toBeErrorEnvelope({ type: 'Timeout' })
  expect(failureOf(() => expect(failed).toBeErrorEnvelope({ type: 'Timeout' }))).toContain('Received error: {"type": "RateLimit"')
})

test('ScriptedLLM: requests, tools and consumed turns', async () => {
  const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }, 'call_1'), 'It is sunny in Paris.'])
  await llm.generate(user('weather in Paris?'))
  expect(llm).not.toHaveConsumedAllTurns()
  await llm.generate({
    model: 'mock',
    stream: false,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', id: 'call_1', result: '{"temperature":21}' }] },
    ],
  })
  expect(llm).toHaveReceivedRequests(2)
  expect(llm).toHaveRequestedTool('get_weather', { city: 'Paris' })
  expect(llm).not.toHaveRequestedTool('search')
  expect(llm).toHaveReceivedToolResult('get_weather', { temperature: 21 })
  expect(llm).toHaveConsumedAllTurns()
  expect(llm).toHaveReceivedRequest({ messages: expect.arrayContaining([expect.objectContaining({ role: 'tool' })]) })
})

test('a matcher given the wrong double throws a TypeError that says so', () => {
  expect(() => expect(mockAgent('x')).toHaveConsumedAllTurns()).toThrow(
    /toHaveConsumedAllTurns: expect\(received\) must be a ScriptedLLM, got a MockAgent/,
  )
  expect(() => expect(mockAgent('x')).toHaveBeenNthCalledWithTask(0, 'x')).toThrow(/n is 1-based/)
})

test('toHaveSentValidRequests on a FakeProxy: passes, then lists a request validation rejected', async () => {
  const { FakeProxy } = require('agent-doubles')
  const proxy = await new FakeProxy().start()
  try {
    const post = (body) => fetch(`${proxy.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect((await post({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    expect(proxy).toHaveSentValidRequests()
    const rejected = await post({ model: 'c', messages: [{ role: 'user', content: 'hi' }] })
    expect(rejected.status).toBe(400)
    await rejected.text()
    expect(proxy).not.toHaveSentValidRequests()
    expect(failureOf(() => expect(proxy).toHaveSentValidRequests())).toContain('400 max_tokens: Field required (param "max_tokens")')
  } finally {
    await proxy.close()
  }
})
