// Teardown with the second release's providers: an HTTP/2 Bedrock client, an NDJSON Ollama
// stream and a Gemini JSON-array stream leave nothing open once the proxy closes.
const { BedrockRuntimeClient, ConverseStreamCommand } = require('@aws-sdk/client-bedrock-runtime')
const { Ollama } = require('ollama')
const { FakeProxy, scriptedLLM } = require('agent-doubles')

test('Bedrock over HTTP/2, Ollama and Gemini streams, then close()', async () => {
  const proxy = await new FakeProxy({ llm: scriptedLLM(() => 'one two three') }).start()
  const bedrock = new BedrockRuntimeClient({ endpoint: proxy.url, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } })
  const answer = await bedrock.send(new ConverseStreamCommand({ modelId: 'm', messages: [{ role: 'user', content: [{ text: 'hi' }] }] }))
  const text = []
  for await (const event of answer.stream) if (event.contentBlockDelta) text.push(event.contentBlockDelta.delta.text)
  expect(text.join('')).toBe('one two three')

  const parts = []
  for await (const part of await new Ollama({ host: proxy.url }).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }], stream: true })) parts.push(part.message.content)
  expect(parts.join('')).toBe('one two three')

  const gemini = await fetch(`${proxy.url}/v1beta/models/m:streamGenerateContent`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }) })
  expect((await gemini.json()).length).toBe(4)

  // The Bedrock client's HTTP/2 session is still open: close() must end it too.
  await proxy.close()
  bedrock.destroy()
})
