// The authoring features of SPEC §14 under Jest: tool order, budgets, snapshots, rules.
const OpenAI = require('openai')
const { configure, FakeProxy, mockAgent, ScriptedLLM, scriptedLLM, toolCall } = require('agent-doubles')
const { snapshotSerializers } = require('agent-doubles/matchers')
const { useFakeProxy } = require('agent-doubles/jest')

function failureOf(assertion) {
  try {
    assertion()
  } catch (error) {
    return error.message.replace(/\u001b\[[0-9;]*m/g, '')
  }
  throw new Error('expected the assertion to fail')
}

const user = (text) => ({ model: 'mock', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text }] }] })

test('toHaveCalledToolsInOrder: four modes and the actual sequence on failure', async () => {
  const llm = scriptedLLM([toolCall('search', { q: 'x' }), toolCall('book', { id: 1 }), 'done'])
  for (const text of ['a', 'b', 'c']) await llm.generate(user(text))
  expect(llm).toHaveCalledToolsInOrder(['search', 'book'], { mode: 'exact' })
  expect(llm).toHaveCalledToolsInOrder([{ name: 'book', args: { id: expect.any(Number) } }])
  expect(llm).toHaveCalledToolsInOrder(['book', 'search'], { mode: 'unordered' })
  expect(llm).toHaveCalledToolsInOrder(['book'], { mode: 'superset' })
  expect(llm).not.toHaveCalledToolsInOrder(['book', 'search'])
  const message = failureOf(() => expect(llm).toHaveCalledToolsInOrder(['book', 'search']))
  expect(message).toContain('Received tool calls, in order:\n  1st: search({"q": "x"})\n  2nd: book({"id": 1})')
  expect(() => expect(llm).toHaveCalledToolsInOrder([], { mode: 'any' })).toThrow(/option mode must be one of/)
})

test('toHaveUsedAtMost: budgets per model with configure({ prices })', async () => {
  const llm = scriptedLLM(['one', 'two'], { usage: { inputTokens: 1000, outputTokens: 100 } })
  await llm.generate({ ...user('a'), model: 'gpt-5' })
  await llm.generate({ ...user('b'), model: 'gpt-5' })
  const restore = configure({ prices: { 'gpt-5': { inputPerMTok: 2, outputPerMTok: 10 } } })
  try {
    expect(llm).toHaveUsedAtMost({ requests: 2, totalTokens: 2200, costUsd: 0.006 })
    const message = failureOf(() => expect(llm).toHaveUsedAtMost({ requests: 1, costUsd: 0.005 }))
    expect(message).toContain('  requests: 2 (limit 1, over by 1)\n  costUsd: $0.006 (limit $0.005, over by $0.001)')
    expect(message).toContain('  gpt-5: 2 requests, 2000 input + 200 output = 2200 tokens, $0.006')
  } finally {
    restore()
  }
  // gpt-5 has a built-in price (SPEC §20); a model without one names itself.
  const unpriced = scriptedLLM(['one'], { usage: { inputTokens: 1000, outputTokens: 100 } })
  await unpriced.generate({ ...user('a'), model: 'in-house-model' })
  expect(() => expect(unpriced).toHaveUsedAtMost({ costUsd: 1 })).toThrow(/no price for model "in-house-model"/)
  expect(() => configure({ prices: { x: { inputPerMTok: 'free', outputPerMTok: 0 } } })).toThrow(TypeError)
  const agent = mockAgent({ '*': 'ok' }, { costUsd: 0.25 })
  await agent('x')
  expect(agent).toHaveUsedAtMost({ requests: 1, costUsd: 0.25 })
  expect(agent).not.toHaveUsedAtMost({ costUsd: 0.2 })
})

describe('snapshot serializers (registered by agent-doubles/jest/setup)', () => {
  const proxy = new FakeProxy()
  beforeAll(() => proxy.start())
  afterAll(() => proxy.close())

  test('a FakeProxy conversation, masked, in the snapshot file and inline', async () => {
    proxy.use(scriptedLLM([toolCall('lookup', { q: 'news' }), 'Nothing new.']))
    const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const messages = [
      { role: 'system', content: `It is ${new Date().toISOString()}; proxy ${proxy.url}` },
      { role: 'user', content: 'Any news?' },
    ]
    const first = await client.chat.completions.create({ model: 'gpt-5', messages, tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }] })
    const call = first.choices[0].message.tool_calls[0]
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: `none (${call.id})` })
    await client.chat.completions.create({ model: 'gpt-5', messages })
    expect(proxy).toMatchSnapshot()
    expect(proxy.requests[1].request).toMatchInlineSnapshot(`
ModelRequest model "gpt-5" {
  system: It is <date>; proxy http://127.0.0.1:<port>
  user: Any news?
  assistant: lookup({"q":"news"})
  tool lookup: none (<id 1>)
}
`)
    proxy.reset()
  })

  test('a MockAgent, and the exported list', async () => {
    expect(snapshotSerializers).toHaveLength(5)
    const agent = mockAgent({ '*': 'done' }, { name: 'writer' })
    await agent('draft 2026-01-05')
    expect(agent).toMatchInlineSnapshot(`
MockAgent "writer" (1 call) {
  call 1: draft <date>
    → done
}
`)
  })
})

test('rules: when() before the script, and a rules file naming its bad line', async () => {
  const llm = scriptedLLM(['scripted']).when({ lastUser: /^ping/i }, 'pong', { times: 1 })
  const text = async (t) => (await llm.generate(user(t))).content[0].text
  expect(await text('Ping')).toBe('pong')
  expect(await text('Ping')).toBe('scripted')
  const fromFile = await ScriptedLLM.fromRules('[{ "match": { "lastUser": "/hi|hello/" }, "reply": "hey" }]')
  expect((await fromFile.generate(user('well hello'))).content[0].text).toBe('hey')
  await expect(ScriptedLLM.fromRules('[\n{ "match": {}, "reply": "x" },\n{ "match": { "nope": 1 }, "reply": "x" }\n]')).rejects.toThrow(
    'rules text line 3 (rule 2): rule match has unknown field "nope"',
  )
})

test('useFakeProxy: a malformed transcript option is a TypeError naming it', () => {
  expect(() => useFakeProxy({ transcript: { upstream: 'api.openai.com' } })).toThrow(
    '[agent-doubles] useFakeProxy transcript: option upstream must be an LLM ({ generate, stream }), the http(s) URL of an OpenAI-compatible origin such as "http://127.0.0.1:4000", or { openai: origin } or { anthropic: origin }, got "api.openai.com"',
  )
  expect(() => useFakeProxy({ transcript: { mode: 'always' } })).toThrow(TypeError)
  expect(() => useFakeProxy({ transcript: 'auto' })).toThrow(/useFakeProxy: option transcript must be \{ dir\?, mode\?, upstream\?, redact\?, normalize\?, timings\?, replaySpeed\? \}/)
})
