// Deliberately failing matchers under Jest: the driver reads their messages from the output.
const OpenAI = require('openai')
const { mockAgent, useFakeProxy } = require('agent-doubles/jest')

const proxy = useFakeProxy()
const writer = mockAgent({ '*': 'draft' }, { name: 'writer' })

test('toHaveBeenCalledWithTask fails and lists the recorded tasks', async () => {
  await writer('summarise the findings')
  await writer('polish the draft')
  expect(writer).toHaveBeenCalledWithTask('nope')
})

test('toHaveRefusedWith fails and lists the refusal codes the proxy gave', async () => {
  proxy.refuse('policy_denied')
  const client = new OpenAI({ apiKey: 'test', maxRetries: 0 })
  await expect(client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow()
  expect(proxy).toHaveRefusedWith('rate_limited')
})

test('a passing test in the same file still passes', async () => {
  await writer('first')
  expect(writer).toHaveBeenCalledWithTask('first')
})
