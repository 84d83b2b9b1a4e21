import { describe, expect, it } from 'vitest'
import { Envelope } from '../../src/agent/envelope.js'
import { mockAgent } from '../../src/agent/mock-agent.js'
import { beginTestScope, endTestScope, liveDoubles, resetAll } from '../../src/registry.js'

describe('MockAgent: recording', () => {
  it('records task, context, input, output and elapsedMs of each call', async () => {
    const agent = mockAgent({ '*': 'done' })
    const input = Envelope.fromTask('first', 'ctx')
    const output = await agent(input)
    await agent('second')
    expect(agent.callCount).toBe(2)
    expect(agent.calls[0]).toMatchObject({ task: 'first', context: 'ctx', input, output })
    expect(agent.calls[0].error).toBeUndefined()
    expect(agent.calls[0].elapsedMs).toBeGreaterThanOrEqual(0)
    expect(agent.lastCall?.task).toBe('second')
    expect(agent.lastCall?.input.payload).toBe('second')
  })

  it('records calls that threw, with the error', async () => {
    const agent = mockAgent(['only'], { name: 'once' })
    await agent('a')
    const error = await agent('b').catch((e: unknown) => e)
    expect(agent.callCount).toBe(2)
    expect(agent.lastCall?.task).toBe('b')
    expect(agent.lastCall?.error).toBe(error)
    expect(agent.lastCall?.output).toBeUndefined()
  })

  it('counts a call as soon as it is made, before it settles', async () => {
    const agent = mockAgent('x', { delayMs: 1 })
    const pending = agent('now')
    expect(agent.callCount).toBe(1)
    expect(agent.lastCall?.output).toBeUndefined()
    await pending
    expect(agent.lastCall?.output?.text()).toBe('x')
  })

  it('reset() clears calls and spy state and rewinds the list cursor', async () => {
    const agent = mockAgent(['one', 'two'])
    await agent('a')
    await agent('b')
    agent.reset()
    expect(agent.callCount).toBe(0)
    expect(agent.lastCall).toBeUndefined()
    expect(agent.mock.calls).toEqual([])
    expect(agent.mock.results).toEqual([])
    expect(agent.mock.lastCall).toBeUndefined()
    expect((await agent('c')).text()).toBe('one')
  })
})

describe('MockAgent: assertions', () => {
  it('assertCalledWith passes on an exact task or a contained substring', async () => {
    const agent = mockAgent('x', { name: 'researcher' })
    await agent('weather today')
    expect(() => agent.assertCalledWith('weather today')).not.toThrow()
    expect(() => agent.assertCalledWith(undefined, { contains: 'ther to' })).not.toThrow()
    expect(() => agent.assertCalledWith('nope', { contains: 'today' })).not.toThrow()
  })

  it('assertCalledWith fails listing the recorded tasks', async () => {
    const agent = mockAgent('x', { name: 'researcher' })
    await agent('weather today')
    await agent('market')
    expect(() => agent.assertCalledWith('weather')).toThrow(
      '[agent-doubles] MockAgent "researcher": no call matched task "weather". Recorded tasks: ["weather today", "market"]',
    )
    expect(() => agent.assertCalledWith(undefined, { contains: 'Weather' })).toThrow(
      /no call matched contains "Weather"\. Recorded tasks: \["weather today", "market"\]/,
    )
  })

  it('assertCalledWith with neither task nor contains always fails', async () => {
    const agent = mockAgent('x', { name: 'r' })
    await agent('anything')
    expect(() => agent.assertCalledWith()).toThrow(
      '[agent-doubles] MockAgent "r": assertCalledWith() needs a task or { contains }. Recorded tasks: ["anything"]',
    )
  })

  it('assertCallCount passes on the exact count and fails otherwise', async () => {
    const agent = mockAgent('x', { name: 'writer' })
    expect(() => agent.assertCallCount(0)).not.toThrow()
    await agent('a')
    expect(() => agent.assertCallCount(1)).not.toThrow()
    expect(() => agent.assertCallCount(2)).toThrow(
      '[agent-doubles] MockAgent "writer": expected 2 calls, got 1. Recorded tasks: ["a"]',
    )
    expect(() => agent.assertCallCount(-1)).toThrow(TypeError)
  })
})

describe('MockAgent: registry', () => {
  it('resetAll() clears the calls of every live agent and rewinds it', async () => {
    const a = mockAgent(['first', 'second'])
    const b = mockAgent('x')
    await a('t')
    await b('t')
    resetAll()
    expect(a.callCount).toBe(0)
    expect(b.mock.calls).toHaveLength(0)
    expect((await a('t')).text()).toBe('first')
  })

  it('an agent created inside a test scope leaves the registry when the scope ends', async () => {
    const outside = mockAgent('kept')
    beginTestScope()
    const inside = mockAgent('temporary')
    expect(liveDoubles()).toContain(inside)
    await inside('t')
    await endTestScope()
    expect(liveDoubles()).not.toContain(inside)
    expect(liveDoubles()).toContain(outside)
    expect(inside.callCount).toBe(0)
  })
})
