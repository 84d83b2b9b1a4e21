import { describe, expect, test } from 'vitest'
import { fakeAgent, fakeLLM, fakeProxy, fakeRequest, userRequest } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

describe('toHaveBeenCalledWithTask', () => {
  const researcher = fakeAgent('researcher', ['market today', 'weather today'])

  test('passes when some call had the task, and supports .not and asymmetric matchers', () => {
    expect(researcher).toHaveBeenCalledWithTask('weather today')
    expect(researcher).not.toHaveBeenCalledWithTask('weather')
    expect(researcher).toHaveBeenCalledWithTask(expect.stringContaining('weath'))
    expect({ agent: researcher }).toEqual({ agent: expect.toHaveBeenCalledWithTask('market today') })
  })

  test('the failure lists each recorded task by ordinal with a count footer', () => {
    const message = plain(failureOf(() => expect(researcher).toHaveBeenCalledWithTask('news')))
    expect(message).toContain('toHaveBeenCalledWithTask')
    expect(message).toContain('Expected task: "news"')
    expect(message).toContain('1st researcher call: "market today"')
    expect(message).toContain('2nd researcher call: "weather today"')
    expect(message).toContain('Number of calls: 2')
  })

  test('the .not failure marks the matching call', () => {
    const message = plain(failureOf(() => expect(researcher).not.toHaveBeenCalledWithTask('weather today')))
    expect(message).toContain('Expected task: not "weather today"')
    expect(message).toContain('→ 2nd researcher call')
  })

  test('a model double’s task is the last user message text', () => {
    const llm = fakeLLM([
      {
        model: 'gpt-5',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'first' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
          { role: 'user', content: [{ type: 'text', text: 'hello' }, { type: 'text', text: 'there' }] },
        ],
        stream: false,
      },
    ])
    // Text parts are joined as lastUserText joins them.
    expect(llm).toHaveBeenCalledWithTask('hello\nthere')
    expect(llm).not.toHaveBeenCalledWithTask('first')
    const proxy = fakeProxy([fakeRequest(userRequest('hi', { model: 'gpt-5' }), { agent: 'researcher' })])
    expect(proxy).toHaveBeenCalledWithTask('hi')
    const message = plain(failureOf(() => expect(proxy).toHaveBeenCalledWithTask('bye')))
    expect(message).toContain('1st request: "hi" (POST /v1/chat/completions, model "gpt-5", agent "researcher")')
    expect(message).toContain('Number of requests: 1')
  })

  test('says so when nothing was recorded', () => {
    const message = plain(failureOf(() => expect(fakeAgent('idle', [])).toHaveBeenCalledWithTask('x')))
    expect(message).toContain('Received: (none)')
    expect(message).toContain('Number of calls: 0')
  })

  test('throws a TypeError naming what it got and what it supports', () => {
    expect(() => expect({ calls: [] }).toHaveBeenCalledWithTask('x')).toThrow(TypeError)
    expect(() => expect('agent').toHaveBeenCalledWithTask('x')).toThrow(
      '[agent-doubles] toHaveBeenCalledWithTask: expect(received) must be a MockAgent, a ScriptedLLM or a FakeProxy, got "agent"',
    )
  })
})

describe('toHaveBeenLastCalledWithTask', () => {
  const researcher = fakeAgent('researcher', ['market today', 'weather today'])

  test('passes on the last call only', () => {
    expect(researcher).toHaveBeenLastCalledWithTask('weather today')
    expect(researcher).not.toHaveBeenLastCalledWithTask('market today')
    expect(researcher).toHaveBeenLastCalledWithTask(expect.stringMatching(/^weather/))
  })

  test('the failure shows a diff and points at the last call', () => {
    const message = plain(failureOf(() => expect(researcher).toHaveBeenLastCalledWithTask('weather tomorrow')))
    expect(message).toContain('Expected task of the last researcher call: "weather tomorrow"')
    expect(message).toContain('→ 2nd researcher call: "weather today"')
    expect(message).toMatch(/- Expected[\s\S]*\+ Received/)
  })

  test('fails, saying nothing was recorded, on a double never called', () => {
    const message = plain(failureOf(() => expect(fakeAgent('idle', [])).toHaveBeenLastCalledWithTask('x')))
    expect(message).toContain('No idle call was recorded.')
    expect(fakeAgent('idle', [])).not.toHaveBeenLastCalledWithTask('x')
  })
})

describe('toHaveBeenNthCalledWithTask', () => {
  const researcher = fakeAgent('researcher', ['market today', 'weather today'])

  test('n is 1-based', () => {
    expect(researcher).toHaveBeenNthCalledWithTask(1, 'market today')
    expect(researcher).toHaveBeenNthCalledWithTask(2, 'weather today')
    expect(researcher).not.toHaveBeenNthCalledWithTask(1, 'weather today')
  })

  test('n past the end fails and says how many calls there were', () => {
    const message = plain(failureOf(() => expect(researcher).toHaveBeenNthCalledWithTask(3, 'x')))
    expect(message).toContain('There is no 3rd researcher call: only 2 recorded.')
  })

  test('a bad n throws and names the alternative', () => {
    expect(() => expect(researcher).toHaveBeenNthCalledWithTask(0, 'x')).toThrow(
      /n must be a positive integer \(n is 1-based; use toHaveBeenLastCalledWithTask for the last call\), got 0/,
    )
    expect(() => expect(researcher).toHaveBeenNthCalledWithTask(1.5 as number, 'x')).toThrow(TypeError)
  })
})
