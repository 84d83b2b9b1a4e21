import { expect as jestExpect } from 'expect'
import { describe, expect, it, vi } from 'vitest'
import { Envelope } from '../../src/agent/envelope.js'
import { mockAgent } from '../../src/agent/mock-agent.js'

describe('MockAgent: spy state', () => {
  it('looks like a mock function', async () => {
    const agent = mockAgent('x', { name: 'researcher' })
    expect(agent._isMockFunction).toBe(true)
    expect(agent.getMockName()).toBe('researcher')
    expect(vi.isMockFunction(agent)).toBe(true)
  })

  it('records argument lists, results as promises, settled results, contexts and order', async () => {
    const agent = mockAgent(['ok', new Error('bad')])
    const first = agent('weather today')
    await first
    await agent.run('again').catch(() => undefined)
    expect(agent.mock.calls).toEqual([['weather today'], ['again']])
    expect(agent.mock.lastCall).toEqual(['again'])
    expect(agent.mock.results[0]).toEqual({ type: 'return', value: first })
    expect(agent.mock.results[0].value).toBe(first)
    expect(agent.mock.settledResults[0]).toMatchObject({ type: 'fulfilled', value: expect.any(Envelope) })
    expect(agent.mock.settledResults[1]).toMatchObject({ type: 'rejected', value: new Error('bad') })
    expect(agent.mock.contexts).toEqual([undefined, agent])
    expect(agent.mock.instances).toHaveLength(2)
    const [a, b] = agent.mock.invocationCallOrder
    expect(b).toBeGreaterThan(a)
  })

  it('keeps a settled result that is still pending as incomplete', () => {
    const agent = mockAgent('x', { delayMs: 1 })
    const pending = agent('t')
    expect(agent.mock.settledResults).toEqual([{ type: 'incomplete', value: undefined }])
    return pending
  })

  it('shares the invocation order counter between agents', async () => {
    const first = mockAgent('1')
    const second = mockAgent('2')
    await first('t')
    await second('t')
    expect(first.mock.invocationCallOrder[0]).toBeLessThan(second.mock.invocationCallOrder[0])
    // toHaveBeenCalledBefore is typed for vi.fn() only; at run time it reads mock.invocationCallOrder.
    expect(first).toHaveBeenCalledBefore(second as never)
    expect(() => expect(second).toHaveBeenCalledBefore(first as never)).toThrow()
  })

  it('mockClear() and mockReset() clear like reset() and return the agent', async () => {
    const agent = mockAgent(['a', 'b'])
    await agent('t')
    expect(agent.mockClear()).toBe(agent)
    expect(agent.callCount).toBe(0)
    expect((await agent('t')).text()).toBe('a')
    expect(agent.mockReset()).toBe(agent)
    expect(agent.mock.calls).toHaveLength(0)
  })
})

describe("MockAgent: Vitest's spy matchers", () => {
  it('toHaveBeenCalledWith passes and fails correctly, with .not', async () => {
    const agent = mockAgent('x', { name: 'researcher' })
    await agent('weather today')
    expect(agent).toHaveBeenCalledWith('weather today')
    expect(agent).toHaveBeenCalledWith(expect.stringContaining('weather'))
    expect(agent).not.toHaveBeenCalledWith('market')
    expect(() => expect(agent).toHaveBeenCalledWith('market')).toThrow(/researcher/)
    expect(() => expect(agent).not.toHaveBeenCalledWith('weather today')).toThrow()
  })

  it('toHaveBeenCalledTimes, toHaveBeenLastCalledWith, toHaveBeenNthCalledWith', async () => {
    const agent = mockAgent('x')
    expect(agent).not.toHaveBeenCalled()
    await agent('a')
    await agent('b')
    expect(agent).toHaveBeenCalledTimes(2)
    expect(() => expect(agent).toHaveBeenCalledTimes(3)).toThrow()
    expect(agent).toHaveBeenLastCalledWith('b')
    expect(() => expect(agent).toHaveBeenLastCalledWith('a')).toThrow()
    expect(agent).toHaveBeenNthCalledWith(1, 'a')
    expect(agent).not.toHaveBeenLastCalledWith('a')
  })

  it('toHaveReturned and toHaveResolved / toHaveResolvedWith', async () => {
    const agent = mockAgent('x')
    expect(() => expect(agent).toHaveReturned()).toThrow()
    const env = await agent('t')
    expect(agent).toHaveReturned()
    expect(agent).toHaveReturnedTimes(1)
    expect(agent).toHaveResolved()
    expect(agent).toHaveResolvedWith(env)
    expect(() => expect(agent).not.toHaveReturned()).toThrow()
  })

  it('a rejected call has not resolved', async () => {
    const agent = mockAgent([])
    await agent('t').catch(() => undefined)
    expect(agent).toHaveBeenCalledTimes(1)
    expect(agent).not.toHaveResolved()
  })
})

describe("MockAgent: Jest's spy matchers (the `expect` package)", () => {
  it('toHaveBeenCalledWith / Times / LastCalledWith pass and fail correctly', async () => {
    const agent = mockAgent('x', { name: 'writer' })
    await agent('draft')
    await agent('final')
    jestExpect(agent).toHaveBeenCalledWith('draft')
    jestExpect(agent).not.toHaveBeenCalledWith('other')
    jestExpect(agent).toHaveBeenCalledTimes(2)
    jestExpect(agent).toHaveBeenLastCalledWith('final')
    jestExpect(agent).toHaveReturned()
    jestExpect(agent).toHaveReturnedTimes(2)
    expect(() => jestExpect(agent).toHaveBeenCalledWith('other')).toThrow(/writer/)
    expect(() => jestExpect(agent).not.toHaveBeenLastCalledWith('final')).toThrow()
    expect(() => jestExpect(agent).toHaveBeenCalledTimes(1)).toThrow()
  })
})
