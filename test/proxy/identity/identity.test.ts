import { describe, expect, it } from 'vitest'
import { AGENT_NAME, checkAgentNames, forwardableHeaders, isSubagentPath, readIdentity } from '../../../src/proxy/identity.js'

describe('readIdentity', () => {
  it('reads the three headers case-insensitively, first of repeated values', () => {
    expect(
      readIdentity({ 'X-Viper-Agent': 'researcher', 'x-viper-definition': ['fake-1', 'fake-2'], 'X-VIPER-SUBAGENT': 'critic/fact-checker' }),
    ).toEqual({ agent: 'researcher', definitionCid: 'fake-1', subagent: 'critic/fact-checker' })
  })

  it('leaves out what is not sent, and keeps an empty header as sent', () => {
    expect(readIdentity({ 'content-type': 'application/json' })).toEqual({})
    expect(readIdentity({ 'x-viper-agent': '' })).toEqual({ agent: '' })
  })
})

describe('forwardableHeaders', () => {
  it('lower-cases names, drops x-viper-*, joins repeated values', () => {
    expect(
      forwardableHeaders({
        'Content-Type': 'application/json',
        'X-Viper-Agent': 'researcher',
        'x-viper-anything': 'x',
        'x-custom': ['a', 'b'],
        'x-missing': undefined,
      }),
    ).toEqual({ 'content-type': 'application/json', 'x-custom': 'a, b' })
  })
})

describe('agent names', () => {
  it.each([
    ['a', true],
    ['researcher_2-b', true],
    ['a'.repeat(64), true],
    ['a'.repeat(65), false],
    ['Researcher', false],
    ['2fast', false],
    ['', false],
    ['a b', false],
  ])('%j valid: %s', (name, valid) => {
    expect(AGENT_NAME.test(name)).toBe(valid)
  })

  it('subagent paths are valid names joined by /', () => {
    expect(isSubagentPath('critic/fact-checker')).toBe(true)
    expect(isSubagentPath('critic')).toBe(true)
    expect(isSubagentPath('critic//x')).toBe(false)
    expect(isSubagentPath('/critic')).toBe(false)
    expect(isSubagentPath('critic/Bad')).toBe(false)
  })

  it('checkAgentNames explains a single string and bad names', () => {
    expect(checkAgentNames('FakeProxy', undefined)).toBeUndefined()
    expect(checkAgentNames('FakeProxy', ['a', 'b'])).toEqual(['a', 'b'])
    expect(() => checkAgentNames('FakeProxy', 'researcher')).toThrow(/FakeProxy: option agents must be an array of agent names \(wrap it: \['researcher'\]\), got "researcher"/)
    expect(() => checkAgentNames('FakeProxy', ['ok', 'Bad'])).toThrow(TypeError)
    expect(() => checkAgentNames('FakeProxy', { a: 1 })).toThrow(/must be an array of agent names/)
  })
})
