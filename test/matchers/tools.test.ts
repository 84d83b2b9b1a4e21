import { describe, expect, test } from 'vitest'
import type { ModelRequest } from '../../src/llm/types.js'
import { fakeAgent, fakeLLM, fakeProxy, fakeRequest, reply, userRequest } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

const askWeather = reply([{ type: 'tool-call', id: 'call_1', name: 'get_weather', args: { city: 'Paris', unit: 'C' } }])
const answer = reply([{ type: 'text', text: 'It is sunny in Paris.' }])
const secondTurn: ModelRequest = {
  model: 'mock',
  stream: false,
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }] },
    // OpenAI's wire format names no tool on the result: the id links it to the call.
    { role: 'tool', content: [{ type: 'tool-result', id: 'call_1', result: '{"temperature":21,"sky":"clear"}' }] },
  ],
}
const llm = fakeLLM([userRequest('weather in Paris?'), secondTurn], [askWeather, answer])

describe('toHaveRequestedTool', () => {
  test('reads the replies, matching args as a subset', () => {
    expect(llm).toHaveRequestedTool('get_weather')
    expect(llm).toHaveRequestedTool('get_weather', { city: 'Paris' })
    expect(llm).toHaveRequestedTool(expect.stringContaining('weather'), { city: expect.any(String) })
    expect(llm).not.toHaveRequestedTool('get_weather', { city: 'Rome' })
    expect(llm).not.toHaveRequestedTool('search')
  })

  test('works on a FakeProxy through each request’s response', () => {
    const proxy = fakeProxy([fakeRequest(userRequest('weather?'), { response: askWeather }), fakeRequest(secondTurn)])
    expect(proxy).toHaveRequestedTool('get_weather', { unit: 'C' })
  })

  test('the failure lists what each reply asked for', () => {
    const message = plain(failureOf(() => expect(fakeLLM([userRequest('a'), userRequest('b')], [askWeather, undefined])).toHaveRequestedTool('search')))
    expect(message).toContain('1st reply: get_weather({"city": "Paris", "unit": "C"})')
    expect(message).toContain('2nd reply: (no reply: the call failed)')
    expect(message).toContain('Number of replies: 2')
    const textOnly = plain(failureOf(() => expect(fakeLLM([userRequest('a')], [answer])).toHaveRequestedTool('search')))
    expect(textOnly).toContain('1st reply: no tool call')
  })

  test('rejects a MockAgent and a bad name', () => {
    expect(() => expect(fakeAgent('a', [])).toHaveRequestedTool('x')).toThrow(TypeError)
    expect(() => expect(llm).toHaveRequestedTool(3 as unknown as string)).toThrow(/name must be a tool name/)
  })
})

describe('toHaveReceivedToolResult', () => {
  test('finds the result through the id of the earlier tool call, parsing JSON text', () => {
    expect(llm).toHaveReceivedToolResult('get_weather')
    expect(llm).toHaveReceivedToolResult('get_weather', { temperature: 21 })
    expect(llm).toHaveReceivedToolResult('get_weather', '{"temperature":21,"sky":"clear"}')
    expect(llm).not.toHaveReceivedToolResult('get_weather', { temperature: 30 })
    expect(llm).not.toHaveReceivedToolResult('search')
  })

  test('compares the parsed JSON text with asymmetric matchers and primitives too', () => {
    expect(llm).toHaveReceivedToolResult('get_weather', expect.objectContaining({ sky: 'clear' }))
    expect(llm).not.toHaveReceivedToolResult('get_weather', expect.objectContaining({ sky: 'rain' }))
    const counted = fakeLLM([
      { model: 'm', stream: false, messages: [{ role: 'tool', content: [{ type: 'tool-result', id: 'x', name: 'count', result: '21' }] }] },
    ])
    expect(counted).toHaveReceivedToolResult('count', 21)
    expect(counted).toHaveReceivedToolResult('count', '21')
    expect(counted).not.toHaveReceivedToolResult('count', 22)
  })

  test('uses the name on the result when the wire format carried one', () => {
    const named = fakeLLM([
      { model: 'm', stream: false, messages: [{ role: 'tool', content: [{ type: 'tool-result', id: 'x', name: 'lookup', result: { ok: true } }] }] },
    ])
    expect(named).toHaveReceivedToolResult('lookup', { ok: true })
  })

  test('the failure lists the results carried back, and in which request', () => {
    const message = plain(failureOf(() => expect(llm).toHaveReceivedToolResult('get_weather', { temperature: 30 })))
    expect(message).toContain('1st result: get_weather → "{"temperature":21,"sky":"clear"}" (in the 2nd request)')
    expect(message).toContain('Number of requests: 2')
  })
})

describe('toHaveConsumedAllTurns', () => {
  test('passes when assertComplete() does not throw', () => {
    expect(fakeLLM([], [], 0)).toHaveConsumedAllTurns()
    expect(fakeLLM([], [], 2)).not.toHaveConsumedAllTurns()
  })

  test('the failure carries the double’s own explanation and the turns left', () => {
    const message = plain(failureOf(() => expect(fakeLLM([userRequest('a')], [], 2)).toHaveConsumedAllTurns()))
    expect(message).toContain('scripted: 2 turn(s) not consumed')
    expect(message).toContain('Turns remaining: 2')
    expect(message).toContain('Number of requests: 1')
  })

  test('only a ScriptedLLM is accepted', () => {
    expect(() => expect(fakeProxy()).toHaveConsumedAllTurns()).toThrow(/must be a ScriptedLLM, got a FakeProxy/)
  })
})
