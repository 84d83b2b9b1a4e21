/**
 * One transcript, every client: a tool loop recorded through the openai SDK replays strictly to
 * the Anthropic SDK, turn by turn — the neutral model makes the two conversations equal.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type Anthropic from '@anthropic-ai/sdk'
import type OpenAI from 'openai'
import { expect, onTestFinished, test } from 'vitest'
import { ScriptedLLM, record, scriptedLLM, toolCall } from '../../src/index.js'
import { anthropicFor, openaiFor, startProxy } from './helpers.js'

const schema = { type: 'object' as const, properties: { city: { type: 'string' } } }

test('a tool loop recorded through OpenAI Chat replays strictly to the Anthropic SDK', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agent-doubles-cross-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'weather.jsonl')

  // Record: the openai client runs a two-turn tool loop against a scripted model.
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
  const second = await openai.chat.completions.create({ model: 'gpt-5', messages, tools })
  expect(second.choices[0].message.content).toBe('Sunny, 21°C.')

  // Replay the file strictly: the same conversation, in Anthropic's words.
  const llm = await ScriptedLLM.fromTranscript(file, { strict: true })
  const replay = await startProxy({ llm })
  const anthropic = anthropicFor(replay)
  const anthropicTools = [{ name: 'get_weather', input_schema: schema }]
  const ask = (messages: Anthropic.MessageParam[]) =>
    anthropic.messages.create({ model: 'claude', max_tokens: 64, system: 'Be brief.', tools: anthropicTools, messages })

  const turn1 = await ask([{ role: 'user', content: 'Weather in Paris?' }])
  const toolUse = turn1.content.find((block) => block.type === 'tool_use')
  expect(toolUse).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } })
  expect(turn1.stop_reason).toBe('tool_use')

  const turn2 = await ask([
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: turn1.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse?.type === 'tool_use' ? toolUse.id : '', content: '{"temp":21}' }] },
  ])
  expect(turn2.content).toEqual([expect.objectContaining({ type: 'text', text: 'Sunny, 21°C.' })])
  llm.assertComplete()
})
