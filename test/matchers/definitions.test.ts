import { describe, expect, test } from 'vitest'
import { fakeLLM, fakeProxy } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

const proxy = fakeProxy([], [], {
  researcher: { model: 'gpt-5', instructions: 'Be brief.', skills: ['bagaachrafake1'] },
})

describe('toHaveRegisteredDefinition', () => {
  test('passes when the agent has a definition, matching a partial', () => {
    expect(proxy).toHaveRegisteredDefinition('researcher')
    expect(proxy).toHaveRegisteredDefinition('researcher', { model: 'gpt-5' })
    expect(proxy).toHaveRegisteredDefinition('researcher', { skills: [expect.stringMatching(/^bagaa/)] })
    expect(proxy).not.toHaveRegisteredDefinition('critic')
    expect(proxy).not.toHaveRegisteredDefinition('researcher', { model: 'claude' })
  })

  test('the failure names the registered agents', () => {
    const message = plain(failureOf(() => expect(proxy).toHaveRegisteredDefinition('critic')))
    expect(message).toContain('Received: no definition for "critic"; registered agents: "researcher"')
    expect(message).toContain('Number of registered definitions: 1')
  })

  test('a mismatching partial shows the definition and a diff', () => {
    const message = plain(failureOf(() => expect(proxy).toHaveRegisteredDefinition('researcher', { model: 'claude' })))
    expect(message).toContain('Received definition: {"model": "gpt-5", "instructions": "Be brief."')
    expect(message).toContain('-   "model": "claude"')
    expect(message).toContain('+   "model": "gpt-5"')
  })

  test('bad arguments throw', () => {
    expect(() => expect(proxy).toHaveRegisteredDefinition(42 as unknown as string)).toThrow(/agent must be an agent name/)
    expect(() => expect(fakeLLM([])).toHaveRegisteredDefinition('researcher')).toThrow(/must be a FakeProxy, got a ScriptedLLM/)
  })
})
