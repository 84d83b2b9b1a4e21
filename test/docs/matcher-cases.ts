/**
 * One failing case per matcher, for its page in docs/matchers/. A case is code, not prose: its
 * `setup` (JavaScript) and `assertion` (one expression) are run as written by
 * test/docs/matcher-pages.test.ts, and the page shows that same code above the message the
 * assertion failed with. Clients talk to the proxy through `proxy.fetch`, so no port appears
 * in an output.
 */
export interface MatcherCase {
  /** The matcher's name, which is also its page: docs/matchers/<matcher>.md. */
  matcher: string
  /** Statements that make the doubles and the traffic; the names of `context` are in scope. */
  setup: string
  /** The failing assertion, an expression. */
  assertion: string
}

const openaiChat = `const client = new OpenAI({ apiKey: 'test', baseURL: 'http://fake/v1', fetch: proxy.fetch, maxRetries: 0 })`

export const matcherCases: MatcherCase[] = [
  {
    matcher: 'toHaveBeenCalledWithTask',
    setup: `const researcher = mockAgent({ weather: 'sunny', market: 'bullish' }, { name: 'researcher' })
await researcher('weather today')
await researcher('market outlook')`,
    assertion: `expect(researcher).toHaveBeenCalledWithTask('weather')`,
  },
  {
    matcher: 'toHaveBeenLastCalledWithTask',
    setup: `const researcher = mockAgent({ weather: 'sunny', market: 'bullish' }, { name: 'researcher' })
await researcher('weather today')
await researcher('market outlook')`,
    assertion: `expect(researcher).toHaveBeenLastCalledWithTask('weather today')`,
  },
  {
    matcher: 'toHaveBeenNthCalledWithTask',
    setup: `const llm = scriptedLLM({ paris: 'Sunny.', rome: 'Rainy.' })
await llm.generate({ model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }], stream: false })
await llm.generate({ model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Rome?' }] }], stream: false })`,
    assertion: `expect(llm).toHaveBeenNthCalledWithTask(2, 'Weather in Paris?')`,
  },
  {
    matcher: 'toHaveRefusedWith',
    setup: `const proxy = new FakeProxy({ agents: ['researcher'] })
const intruder = new OpenAI({ apiKey: 'test', baseURL: 'http://fake/v1', fetch: proxy.fetch, maxRetries: 0, defaultHeaders: { 'x-viper-agent': 'intruder' } })
await intruder.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello' }] }).catch(() => {})`,
    assertion: `expect(proxy).toHaveRefusedWith('rate_limited')`,
  },
  {
    matcher: 'toHaveReceivedRequest',
    setup: `const proxy = new FakeProxy()
${openaiChat}
await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello' }] })`,
    assertion: `expect(proxy).toHaveReceivedRequest({ model: 'gpt-4o' })`,
  },
  {
    matcher: 'toHaveReceivedRequests',
    setup: `const proxy = new FakeProxy()
${openaiChat}
await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello' }] })
await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'and again' }] })`,
    assertion: `expect(proxy).toHaveReceivedRequests(1)`,
  },
  {
    matcher: 'toHaveSentValidRequests',
    setup: `const proxy = new FakeProxy()
${openaiChat}
await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello' }], temperature: 7 }).catch(() => {})`,
    assertion: `expect(proxy).toHaveSentValidRequests()`,
  },
  {
    matcher: 'toHaveRegisteredDefinition',
    setup: `const proxy = new FakeProxy({ agents: ['researcher', 'writer'] })
await new ProxyClient('http://fake', { fetch: proxy.fetch }).agent('researcher', { model: 'gpt-5' }).register()`,
    assertion: `expect(proxy).toHaveRegisteredDefinition('researcher', { model: 'claude-sonnet-4-5' })`,
  },
  {
    matcher: 'toHaveRequestedTool',
    setup: `const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.'])
const ask = { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }], stream: false }
await llm.generate(ask)`,
    assertion: `expect(llm).toHaveRequestedTool('get_weather', { city: 'Rome' })`,
  },
  {
    matcher: 'toHaveReceivedToolResult',
    setup: `const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }, 'call_1'), 'It is sunny in Paris.'])
const user = { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }
const first = await llm.generate({ model: 'gpt-5', messages: [user], stream: false })
await llm.generate({ model: 'gpt-5', stream: false, messages: [user, { role: 'assistant', content: first.content },
  { role: 'tool', content: [{ type: 'tool-result', id: 'call_1', name: 'get_weather', result: { temperature: 21 } }] }] })`,
    assertion: `expect(llm).toHaveReceivedToolResult('get_weather', { temperature: 30 })`,
  },
  {
    matcher: 'toHaveConsumedAllTurns',
    setup: `const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.'])
await llm.generate({ model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] }], stream: false })`,
    assertion: `expect(llm).toHaveConsumedAllTurns()`,
  },
  {
    matcher: 'toHaveText',
    setup: `const researcher = mockAgent({ weather: 'sunny' }, { name: 'researcher' })
const env = await researcher('weather today')`,
    assertion: `expect(env).toHaveText('rainy')`,
  },
  {
    matcher: 'toBeErrorEnvelope',
    setup: `const researcher = mockAgent({ '*': new ErrorInfo({ type: 'Timeout', message: 'gave up after 30 s' }) }, { name: 'researcher' })
const failed = await researcher('weather today')`,
    assertion: `expect(failed).toBeErrorEnvelope({ type: 'RateLimit', retryable: true })`,
  },
  {
    matcher: 'toHaveUsage',
    setup: `const researcher = mockAgent({ weather: 'sunny' }, { name: 'researcher', inputTokens: 50, outputTokens: 30 })
const env = await researcher('weather today')`,
    assertion: `expect(env).toHaveUsage({ inputTokens: 50, outputTokens: 10 })`,
  },
  {
    matcher: 'toHaveCalledToolsInOrder',
    setup: `const llm = scriptedLLM([toolCall('search_flights', { to: 'Paris' }), toolCall('send_confirmation', {}), toolCall('book_flight', { flight: 'AF1' }), 'Booked.'])
const ask = { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Book me to Paris' }] }], stream: false }
for (let turn = 0; turn < 4; turn++) await llm.generate(ask)`,
    assertion: `expect(llm).toHaveCalledToolsInOrder(['search_flights', 'book_flight', 'send_confirmation'])`,
  },
  {
    matcher: 'toHaveUsedAtMost',
    setup: `configure({ prices: { 'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 } } })
const llm = scriptedLLM([{ text: 'Plan A.', usage: { inputTokens: 1200, outputTokens: 300 } }, { text: 'Plan B.', usage: { inputTokens: 900, outputTokens: 400 } }])
const ask = { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'Plan a trip' }] }], stream: false }
await llm.generate(ask)
await llm.generate(ask)`,
    assertion: `expect(llm).toHaveUsedAtMost({ requests: 1, totalTokens: 2000, costUsd: 0.005 })`,
  },
  {
    matcher: 'toHaveHitPromptCache',
    setup: `const proxy = new FakeProxy()
${openaiChat}
const rules = 'Answer briefly and name your sources. '.repeat(150)
for (const now of ['09:00:00', '09:00:05']) {
  await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'system', content: 'It is ' + now + '. ' + rules }, { role: 'user', content: 'Plan a trip' }] })
}`,
    assertion: `expect(proxy).toHaveHitPromptCache()`,
  },
  {
    matcher: 'toHaveCalledMcpTool',
    setup: `const mcp = await fakeMcpServer({ tools: { get_weather: { responses: { Paris: 'sunny', '*': 'rain' } } } }).start()
defer(() => mcp.close())
const client = new Client({ name: 'my-agent', version: '1.0.0' })
await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)))
await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })
await client.close()`,
    assertion: `expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Rome' })`,
  },
  {
    matcher: 'toHaveCalledMcpToolTimes',
    setup: `const mcp = await fakeMcpServer({ tools: { get_weather: { responses: 'sunny' } } }).start()
defer(() => mcp.close())
const client = new Client({ name: 'my-agent', version: '1.0.0' })
await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url)))
await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })
await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })
await client.close()`,
    assertion: `expect(mcp).toHaveCalledMcpToolTimes('get_weather', 1)`,
  },
]
