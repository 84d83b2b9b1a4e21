// SPEC §9 in Jest: useFakeProxy() keeps one handle per file; each concurrent test takes a lane of
// it and builds its clients from the lane's URL, so 200 tests at once never share answers.
const Anthropic = require('@anthropic-ai/sdk')
const OpenAI = require('openai')
const { FakeProxy, ProxyLane } = require('agent-doubles')
const { useFakeProxy, scriptedLLM } = require('agent-doubles/jest')

const proxy = useFakeProxy()
const TESTS = 200
const modes = ['openai-json', 'openai-stream', 'anthropic-json', 'anthropic-stream']

async function ask(mode, url, question) {
  const messages = [{ role: 'user', content: question }]
  if (mode.startsWith('openai')) {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 })
    if (mode === 'openai-json') return (await client.chat.completions.create({ model: 'gpt-5', messages })).choices[0].message.content
    let text = ''
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-5', messages, stream: true })) text += chunk.choices[0]?.delta.content ?? ''
    return text
  }
  const client = new Anthropic({ apiKey: 'test', baseURL: url, maxRetries: 0 })
  const request = { model: 'claude-sonnet-4-6', max_tokens: 64, messages }
  const message = mode === 'anthropic-json' ? await client.messages.create(request) : await client.messages.stream(request).finalMessage()
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
}

describe(`${TESTS} concurrent tests, a lane each`, () => {
  for (let index = 0; index < TESTS; index++) {
    const mode = modes[index % modes.length]
    test.concurrent(`test ${index} (${mode})`, async () => {
      const lane = proxy.lane(`test ${index}`)
      try {
        expect(lane).toBeInstanceOf(FakeProxy)
        expect(lane).toBeInstanceOf(ProxyLane)
        lane.use(scriptedLLM([`answer ${index}`, `second answer ${index}`]))
        expect(await ask(mode, lane.url, `question ${index}`)).toBe(`answer ${index}`)
        await new Promise((resolve) => setTimeout(resolve, index % 7))
        expect(await ask(mode, lane.url, `follow-up ${index}`)).toBe(`second answer ${index}`)
        expect(lane).toHaveReceivedRequests(2)
        expect(lane.requests.map((request) => request.lane)).toEqual([`test ${index}`, `test ${index}`])
        expect(lane).toHaveBeenCalledWithTask(`question ${index}`)
      } finally {
        await lane.close()
      }
    })
  }
})

test('a closed lane answers 404 naming it; the file proxy still serves', async () => {
  const lane = proxy.lane('gone')
  const url = lane.url
  await lane.close()
  const client = new OpenAI({ apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 })
  await expect(client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
    status: 404,
    error: { message: expect.stringContaining('lane "gone"') },
  })
  const root = new OpenAI({ maxRetries: 0 })
  await expect(root.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).resolves.toBeDefined()
  // The closed lane's 404 is recorded on the proxy too (SPEC §17: turned-away requests are seen).
  expect(proxy).toHaveReceivedRequests(2)
  expect(proxy.requests.map((request) => request.status)).toEqual([404, undefined])
})
