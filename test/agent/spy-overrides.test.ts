/**
 * MockAgent's full spy surface (SPEC §15): one-off and standing overrides win over the
 * responses, are recorded like any call, and read back through the runner's own matchers. This
 * file runs in Vitest 4 (Node 20 leg) and Vitest 5 (Node 24 leg); test/jest/spy.test.cjs covers Jest 30.
 */
import { describe, expect, it, vi } from 'vitest'
import { Envelope, ErrorInfo, mockAgent } from '../../src/index.js'

describe('MockAgent: overrides win over the responses for their calls', () => {
  it('mockResolvedValueOnce answers the next call, then the responses answer again; both are recorded', async () => {
    const agent = mockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher' })
    agent.mockResolvedValueOnce('overridden').mockResolvedValueOnce(new Envelope({ payload: 'verbatim', task: 'kept' }))

    expect((await agent('weather today')).text()).toBe('overridden')
    const second = await agent('weather again')
    expect(second).toMatchObject({ payload: 'verbatim', task: 'kept' })
    expect((await agent('weather later')).text()).toBe('sunny')

    expect(agent.callCount).toBe(3)
    expect(agent.calls[0].output).toMatchObject({ task: 'weather today', payload: 'overridden', metadata: { inputTokens: 10, model: 'mock' } })
    expect(agent.calls[1].output).toBe(second)
    expect(agent).toHaveBeenCalledTimes(3)
    expect(agent).toHaveBeenNthCalledWith(2, 'weather again')
    expect(agent).toHaveBeenLastCalledWith('weather later')
    expect(agent).toHaveReturnedTimes(3)
    await expect(agent.mock.settledResults[0].value).toMatchObject({ payload: 'overridden' })
  })

  it('mockReturnValue(Once) and mockResolvedValue give an envelope; an ErrorInfo becomes an error envelope', async () => {
    const agent = mockAgent('default')
    agent.mockReturnValue('standing').mockReturnValueOnce(new ErrorInfo({ type: 'Timeout', message: 'slow', retryable: true }))
    const failed = await agent('a')
    expect(failed.ok).toBe(false)
    expect(failed.error).toMatchObject({ type: 'Timeout', retryable: true })
    expect((await agent('b')).text()).toBe('standing')
    agent.mockResolvedValue({ answer: 42 })
    expect((await agent('c')).payload).toEqual({ answer: 42 })
    expect(agent.calls.map((call) => call.output?.ok)).toEqual([false, true, true])
  })

  it('mockRejectedValue(Once) rejects the call and records the error', async () => {
    const agent = mockAgent('fine', { name: 'flaky' })
    const down = new Error('down')
    agent.mockRejectedValueOnce(down)
    await expect(agent('first')).rejects.toBe(down)
    expect((await agent('second')).text()).toBe('fine')
    expect(agent.calls[0].error).toBe(down)
    expect(agent.calls[0].output).toBeUndefined()
    expect(agent.mock.settledResults.map((r) => r.type)).toEqual(['rejected', 'fulfilled'])
    expect(agent).toHaveBeenCalledTimes(2)

    agent.mockRejectedValue('not an Error')
    await expect(agent('third')).rejects.toBe('not an Error')
  })

  it('mockImplementation gets the call\'s arguments and this; Once wins over it; getMockImplementation tells which', async () => {
    const agent = mockAgent('default')
    const impl = vi.fn((task: string) => `impl: ${task}`)
    expect(agent.getMockImplementation()).toBeUndefined()
    agent.mockImplementation(impl).mockImplementationOnce(async (task: string) => `once: ${task}`)
    expect(agent.getMockImplementation()).toBe(impl)

    expect((await agent('a')).text()).toBe('once: a')
    expect((await agent.run('b')).text()).toBe('impl: b')
    expect(impl).toHaveBeenCalledWith('b')
    expect(impl.mock.contexts[0]).toBe(agent)
    expect(agent.calls.map((call) => call.output?.text())).toEqual(['once: a', 'impl: b'])
  })

  it('an override goes through the output schema like any payload', async () => {
    const schema = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: (value: unknown) => (typeof value === 'number' ? { value } : { issues: [{ message: 'expected a number' }] }),
      },
    }
    const agent = mockAgent(1, { output: schema, name: 'scorer' })
    agent.mockResolvedValueOnce('not a number')
    await expect(agent('score')).rejects.toThrow(/MockAgent "scorer": the payload for task "score" does not match the output schema: expected a number/)
  })

  it('reset(), mockReset() and mockRestore() drop overrides; mockClear() keeps them', async () => {
    const agent = mockAgent('default')
    agent.mockReturnValue('standing').mockReturnValueOnce('once')
    await agent('a')
    expect(agent.mockClear()).toBe(agent)
    expect(agent.callCount).toBe(0)
    expect((await agent('b')).text()).toBe('standing')

    agent.mockReset()
    expect((await agent('c')).text()).toBe('default')
    agent.mockReturnValueOnce('once again')
    agent.mockRestore()
    expect((await agent('d')).text()).toBe('default')
    agent.mockReturnValue('x')
    agent.reset()
    expect((await agent('e')).text()).toBe('default')
    expect(agent.callCount).toBe(1)
  })

  it('a non-function implementation is a TypeError naming the agent', () => {
    const agent = mockAgent('x', { name: 'researcher' })
    expect(() => agent.mockImplementation('nope' as never)).toThrow(TypeError)
    expect(() => agent.mockImplementationOnce(42 as never)).toThrow(
      /\[agent-doubles\] MockAgent "researcher" mockImplementationOnce\(\): the implementation must be a function, got 42/,
    )
  })
})

describe('MockAgent: vi.spyOn(agent, "run")', () => {
  it('returns the agent itself, whose one-off override is recorded like any call', async () => {
    const agent = mockAgent({ '*': 'from responses' }, { name: 'researcher' })
    const spy = vi.spyOn(agent, 'run')
    expect(spy).toBe(agent)
    spy.mockResolvedValueOnce(new Envelope({ payload: 'from the spy' }))

    expect((await agent.run('first')).text()).toBe('from the spy')
    expect((await agent('second')).text()).toBe('from responses')
    expect(spy).toHaveBeenCalledTimes(2)
    expect(spy).toHaveBeenNthCalledWith(1, 'first')
    expect(agent.calls[0].output?.text()).toBe('from the spy')

    spy.mockRestore()
    expect(agent.callCount).toBe(0)
    expect((await agent.run('third')).text()).toBe('from responses')
  })

  it('mock.results hold the returned promises and mock.invocationCallOrder orders calls across doubles', async () => {
    const first = mockAgent('1')
    const second = mockAgent('2')
    const a = first('t')
    const b = second('t')
    const c = first('t')
    await Promise.all([a, b, c])
    expect(first.mock.results).toEqual([{ type: 'return', value: a }, { type: 'return', value: c }])
    expect(first.mock.results[1].value).toBe(c)
    const [one, three] = first.mock.invocationCallOrder
    const [two] = second.mock.invocationCallOrder
    expect(one).toBeLessThan(two)
    expect(two).toBeLessThan(three)
  })
})
