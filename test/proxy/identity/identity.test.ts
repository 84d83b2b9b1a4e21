import { describe, expect, it } from 'vitest'
import { AGENT_NAME, checkAgentNames, forwardableHeaders, isSubagentPath, readIdentity } from '../../../src/gateway/identity.js'

describe('readIdentity', () => {
  it('reads the three headers (names lower-cased, as Node gives them), first of repeated values, trimmed', () => {
    expect(
      readIdentity({ 'x-viper-agent': ' researcher ', 'x-viper-definition': ['fake-1', 'fake-2'], 'x-viper-subagent': 'critic/fact-checker' }),
    ).toEqual({ agent: 'researcher', definitionCid: 'fake-1', subagent: 'critic/fact-checker' })
  })

  it('leaves out what is not sent, and keeps an empty header as sent', () => {
    expect(readIdentity({ 'content-type': 'application/json' })).toEqual({})
    expect(readIdentity({ 'x-viper-agent': '' })).toEqual({ agent: '' })
  })
})

describe('forwardableHeaders', () => {
  it('drops x-viper-* and missing values, joins repeated values, into a copy', () => {
    const headers = {
      'content-type': 'application/json',
      'x-viper-agent': 'researcher',
      'x-viper-anything': 'x',
      'x-custom': ['a', 'b'],
      'x-missing': undefined,
    }
    expect(forwardableHeaders(headers)).toEqual({ 'content-type': 'application/json', 'x-custom': 'a, b' })
    expect(headers['x-viper-agent']).toBe('researcher')
  })

  it('hands back the headers themselves when there is nothing to drop or join', () => {
    const headers = { 'content-type': 'application/json', authorization: 'Bearer k' }
    expect(forwardableHeaders(headers)).toBe(headers)
    expect(forwardableHeaders({ ...headers, 'x-list': ['a'] })).toEqual({ ...headers, 'x-list': 'a' })
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
