import { describe, expect, test } from 'vitest'
import { toolCall } from '../../src/llm/helpers.js'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'
import { anthropicFor, openaiFor, postJson, startProxy } from './helpers.js'

describe('a ScriptedLLM behind the proxy', () => {
  test('one script serves OpenAI and Anthropic clients alike', async () => {
    const llm = new ScriptedLLM([toolCall('get_weather', { city: 'Paris' }, 'call_1'), 'Sunny.'])
    const proxy = await startProxy({ llm })
    const first = await openaiFor(proxy).chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'weather?' }] })
    expect(first.choices[0].message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } })
    const second = await anthropicFor(proxy)
      .messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'again?' }] })
      .finalMessage()
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'Sunny.' })
    expect(proxy.requests.map((r) => r.dialect)).toEqual(['openai-chat', 'anthropic-messages'])
  })

  test('a perCall transcript gives each agent/subagent identity its own cursor', async () => {
    const transcript = [
      { request: { model: 'm', messages: [], stream: false }, response: { content: [{ type: 'text', text: 'turn one' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } } },
      { request: { model: 'm', messages: [], stream: false }, response: { content: [{ type: 'text', text: 'turn two' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } } },
    ]
      .map((turn) => JSON.stringify(turn))
      .join('\n')
    const llm = await ScriptedLLM.fromTranscript(`${transcript}\n`, { perCall: true })
    const proxy = await startProxy({ llm })
    const ask = async (subagent: string): Promise<string> => {
      const answer = await postJson(`${proxy.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'x' }] }, { 'x-viper-agent': 'lead', 'x-viper-subagent': subagent })
      return (answer.body as { choices: { message: { content: string } }[] }).choices[0].message.content
    }
    expect(await Promise.all([ask('a'), ask('b'), ask('c')])).toEqual(['turn one', 'turn one', 'turn one'])
    expect(await ask('a')).toBe('turn two')
  })
})
