import { describe, expect, it } from 'vitest'
import { AgentBook } from '../../../src/gateway/agent-book.js'
import { checkModelRequest, checkModelRequestDetail, type CheckInput } from '../../../src/gateway/checks.js'
import { allFeatures, type Identity, type ProxyFeature } from '../../../src/server/types.js'

function bookWithDefinition(): { book: AgentBook; cid: string } {
  const book = new AgentBook(['researcher'])
  const cid = book.register('researcher', { model: 'gpt-5' })
  return { book, cid }
}

function check(identity: Identity, options: Partial<Omit<CheckInput, 'identity'>> = {}) {
  const { book } = bookWithDefinition()
  return checkModelRequest({ identity, book, strict: false, features: new Set(allFeatures), needs: [], ...options })
}

const without = (...missing: ProxyFeature[]) => new Set(allFeatures.filter((feature) => !missing.includes(feature)))

describe('checkModelRequest', () => {
  it('passes a well-formed request', () => {
    const { book, cid } = bookWithDefinition()
    expect(
      checkModelRequest({
        identity: { agent: 'researcher', definitionCid: cid, subagent: 'critic/checker' },
        book,
        strict: true,
        features: new Set(allFeatures),
        needs: ['responses_api'],
      }),
    ).toBeUndefined()
    expect(check({})).toBeUndefined()
  })

  it('1. strict and no agent → agent_required', () => {
    expect(check({}, { strict: true })).toBe('agent_required')
  })

  it('1. a definition or subagent without an agent → agent_required even when not strict', () => {
    expect(check({ definitionCid: 'fake-x' })).toBe('agent_required')
    expect(check({ subagent: 'critic' })).toBe('agent_required')
  })

  it('1 wins over 2 and 5', () => {
    expect(check({ subagent: 'Bad' }, { strict: true, features: new Set(), needs: ['embeddings'] })).toBe('agent_required')
  })

  it('2. a malformed agent or subagent → invalid_agent_name, before 3, 4 and 5', () => {
    expect(check({ agent: 'Bad Name' })).toBe('invalid_agent_name')
    expect(check({ agent: '' }, { strict: true })).toBe('invalid_agent_name')
    expect(check({ agent: 'researcher', subagent: 'a//b' })).toBe('invalid_agent_name')
    // 'Nobody' is also not enrolled, its definition unknown and a feature is missing: 2 still wins
    expect(check({ agent: 'Nobody', definitionCid: 'fake-x' }, { features: new Set(), needs: ['embeddings'] })).toBe('invalid_agent_name')
    expect(check({ agent: 'researcher', subagent: 'X', definitionCid: 'fake-x' })).toBe('invalid_agent_name')
  })

  it('3. an agent not enrolled → agent_unknown, before 4 and 5', () => {
    expect(check({ agent: 'stranger' })).toBe('agent_unknown')
    expect(check({ agent: 'stranger', definitionCid: 'fake-x' }, { features: new Set(), needs: ['embeddings'] })).toBe('agent_unknown')
  })

  it('3. without an agents list, every valid name is enrolled', () => {
    expect(check({ agent: 'anyone' }, { book: new AgentBook(undefined) })).toBeUndefined()
    expect(check({ agent: 'anyone' }, { book: new AgentBook([]) })).toBe('agent_unknown')
  })

  it('4. a definition that is not the latest → definition_unknown, before 5', () => {
    expect(check({ agent: 'researcher', definitionCid: 'fake-old' })).toBe('definition_unknown')
    expect(check({ agent: 'researcher', definitionCid: 'fake-old' }, { features: new Set(), needs: ['embeddings'] })).toBe('definition_unknown')
    const { book, cid } = bookWithDefinition()
    book.register('researcher', { model: 'gpt-6' })
    expect(checkModelRequest({ identity: { agent: 'researcher', definitionCid: cid }, book, strict: false, features: new Set(allFeatures), needs: [] })).toBe(
      'definition_unknown',
    )
    book.restart()
    expect(book.latestCid('researcher')).toBeUndefined()
  })

  it('5. a needed feature the proxy does not report → feature_unsupported', () => {
    const { book, cid } = bookWithDefinition()
    const base = { book, strict: false, needs: [] as ProxyFeature[] }
    expect(check({}, { features: without('responses_api'), needs: ['responses_api'] })).toBe('feature_unsupported')
    expect(check({ agent: 'researcher' }, { features: without('embeddings'), needs: ['embeddings'] })).toBe('feature_unsupported')
    expect(checkModelRequest({ ...base, identity: { agent: 'researcher', definitionCid: cid }, features: without('definitions') })).toBe('feature_unsupported')
    expect(checkModelRequest({ ...base, identity: { agent: 'researcher', subagent: 'critic' }, features: without('subagents') })).toBe('feature_unsupported')
    expect(checkModelRequest({ ...base, identity: { agent: 'researcher' }, features: without('subagents', 'definitions') })).toBeUndefined()
  })

  it('says what failed and how to fix it', () => {
    const { book } = bookWithDefinition()
    const failure = checkModelRequestDetail({ identity: { agent: 'researcher', definitionCid: 'fake-old' }, book, strict: false, features: new Set(allFeatures), needs: [] })
    expect(failure).toEqual({
      code: 'definition_unknown',
      message: expect.stringContaining('"fake-old"'),
      hint: expect.stringContaining('PUT /viper/v1/agents/researcher/definition'),
    })
  })
})
