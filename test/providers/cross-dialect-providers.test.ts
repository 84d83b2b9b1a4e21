/**
 * One transcript, every client: a tool loop recorded through the openai SDK replays strictly
 * to `@google/genai` and to `@aws-sdk/client-bedrock-runtime` — the neutral model makes the
 * conversations equal.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BedrockRuntimeClient, ConverseCommand, type Message } from '@aws-sdk/client-bedrock-runtime'
import { GoogleGenAI, type Content } from '@google/genai'
import type OpenAI from 'openai'
import { expect, onTestFinished, test } from 'vitest'
import { ScriptedLLM, record, scriptedLLM, toolCall } from '../../src/index.js'
import { openaiFor, startProxy } from '../proxy/helpers.js'

const schema = { type: 'object' as const, properties: { city: { type: 'string' } } }

/** Records a two-turn tool loop through the openai client into a transcript file; returns its path. */
async function recordThroughOpenAI(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-doubles-providers-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'weather.jsonl')
  const recording = await startProxy({
    llm: record(scriptedLLM([toolCall('get_weather', { city: 'Paris' }, 'call_1'), 'Sunny, 21°C.']), { to: file }),
  })
  const openai = openaiFor(recording)
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: schema } }]
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
  ]
  const first = await openai.chat.completions.create({ model: 'gpt-5', messages, tools })
  const call = first.choices[0].message.tool_calls?.[0]
  if (call?.type !== 'function') throw new Error('expected a function tool call')
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"temp":21}' })
  await openai.chat.completions.create({ model: 'gpt-5', messages, tools })
  return file
}

test('a tool loop recorded through OpenAI Chat replays strictly to @google/genai', async () => {
  const file = await recordThroughOpenAI()
  const llm = await ScriptedLLM.fromTranscript(file, { strict: true })
  const replay = await startProxy({ llm })
  const genai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: replay.url } })
  const config = { systemInstruction: 'Be brief.', tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: schema }] }] }
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }]
  const turn1 = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents, config })
  const functionCall = turn1.functionCalls?.[0]
  expect(functionCall).toEqual({ id: 'call_1', name: 'get_weather', args: { city: 'Paris' } })
  contents.push(turn1.candidates![0].content!, {
    role: 'user',
    parts: [{ functionResponse: { id: functionCall!.id, name: 'get_weather', response: { output: '{"temp":21}' } } }],
  })
  const turn2 = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents, config })
  expect(turn2.text).toBe('Sunny, 21°C.')
  llm.assertComplete()
})

test('a tool loop recorded through OpenAI Chat replays strictly to the Bedrock Converse API', async () => {
  const file = await recordThroughOpenAI()
  const llm = await ScriptedLLM.fromTranscript(file, { strict: true })
  const replay = await startProxy({ llm })
  const bedrock = new BedrockRuntimeClient({ endpoint: replay.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } })
  onTestFinished(() => bedrock.destroy())
  const toolConfig = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: schema } } }] }
  const messages: Message[] = [{ role: 'user', content: [{ text: 'Weather in Paris?' }] }]
  const ask = () => bedrock.send(new ConverseCommand({ modelId: 'amazon.nova-lite-v1:0', system: [{ text: 'Be brief.' }], messages, toolConfig }))
  const turn1 = await ask()
  expect(turn1.stopReason).toBe('tool_use')
  const toolUse = turn1.output?.message?.content?.[0].toolUse
  expect(toolUse).toEqual({ toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } })
  messages.push(turn1.output!.message!, { role: 'user', content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: '{"temp":21}' }] } }] })
  const turn2 = await ask()
  expect(turn2.output?.message?.content).toEqual([{ text: 'Sunny, 21°C.' }])
  llm.assertComplete()
})

test('a strict mismatch reaches the Gemini client as a 500 naming the differing path', async () => {
  const transcript = JSON.stringify({
    request: { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], stream: false },
    response: { content: [{ type: 'text', text: 'hi' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } },
  })
  const replay = await startProxy({ llm: await ScriptedLLM.fromTranscript(transcript, { strict: true }) })
  const genai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: replay.url } })
  await expect(genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'goodbye' })).rejects.toThrow(/strict mismatch on turn 1/)
})
