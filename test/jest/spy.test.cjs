// A MockAgent satisfies Jest's built-in spy matchers (SPEC §3, "Spy compatibility").
const { mockAgent, Envelope } = require('agent-doubles')

function failureOf(assertion) {
  try {
    assertion()
  } catch (error) {
    return error.message
  }
  throw new Error('expected the assertion to fail')
}

describe('MockAgent with Jest spy matchers', () => {
  const researcher = mockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher' })

  test('toHaveBeenCalledWith / Times / LastCalledWith / NthCalledWith pass', async () => {
    await researcher('weather today')
    await researcher('market')
    expect(researcher).toHaveBeenCalled()
    expect(researcher).toHaveBeenCalledTimes(2)
    expect(researcher).toHaveBeenCalledWith('weather today')
    expect(researcher).toHaveBeenCalledWith(expect.stringContaining('weather'))
    expect(researcher).toHaveBeenLastCalledWith('market')
    expect(researcher).toHaveBeenNthCalledWith(1, 'weather today')
    expect(researcher).not.toHaveBeenCalledWith('news')
  })

  test('toHaveReturned and toHaveReturnedTimes see the envelope promises', async () => {
    await researcher('weather today')
    expect(researcher).toHaveReturned()
    expect(researcher).toHaveReturnedTimes(1)
    expect(researcher.mock.results[0].value).toBeInstanceOf(Promise)
    expect(await researcher.mock.results[0].value).toBeInstanceOf(Envelope)
  })

  test('failures name the agent and show the calls', async () => {
    await researcher('weather today')
    const message = failureOf(() => expect(researcher).toHaveBeenCalledWith('news'))
    expect(message).toContain('expect(researcher).toHaveBeenCalledWith(...expected)')
    expect(message).toContain('"weather today"')
    expect(failureOf(() => expect(researcher).toHaveBeenCalledTimes(3))).toContain('Received number of calls: 1')
    expect(failureOf(() => expect(researcher).toHaveBeenLastCalledWith('x'))).toContain('toHaveBeenLastCalledWith')
    expect(failureOf(() => expect(researcher).not.toHaveReturned())).toContain('Received number of returns: 1')
  })

  test('a call that threw is recorded but has not returned', async () => {
    const failing = mockAgent(new Error('boom'), { name: 'failing' })
    await expect(failing('x')).rejects.toThrow('boom')
    expect(failing).toHaveBeenCalledWith('x')
  })

  test('mockClear() clears like reset()', async () => {
    await researcher('weather today')
    researcher.mockClear()
    expect(researcher).not.toHaveBeenCalled()
    expect(researcher.calls).toEqual([])
  })

  test('jest.spyOn(agent, "run") gives the agent; its one-off override is recorded like any call', async () => {
    const agent = mockAgent({ '*': 'from responses' }, { name: 'writer' })
    const spy = jest.spyOn(agent, 'run')
    expect(spy).toBe(agent)
    spy.mockResolvedValueOnce('from the spy')
    expect((await agent.run('first')).text()).toBe('from the spy')
    expect((await agent('second')).text()).toBe('from responses')
    expect(spy).toHaveBeenCalledTimes(2)
    expect(spy).toHaveBeenNthCalledWith(1, 'first')
    expect(spy).toHaveBeenLastCalledWith('second')
    expect(spy).toHaveReturnedTimes(2)
    expect(agent.calls[0].output.text()).toBe('from the spy')
    spy.mockRestore()
    expect(spy).not.toHaveBeenCalled()
  })

  test('mockImplementation(Once), mockReturnValue(Once), mockRejectedValue(Once) win over the responses', async () => {
    const agent = mockAgent('default', { name: 'flaky' })
    const down = new Error('down')
    agent.mockReturnValue('standing').mockReturnValueOnce('once').mockRejectedValueOnce(down)
    expect((await agent('a')).text()).toBe('once')
    await expect(agent('b')).rejects.toBe(down)
    expect((await agent('c')).text()).toBe('standing')
    agent.mockImplementationOnce((task) => `impl: ${task}`)
    expect((await agent('d')).text()).toBe('impl: d')
    agent.mockRejectedValue(down)
    await expect(agent('e')).rejects.toBe(down)
    expect(agent).toHaveBeenCalledTimes(5)
    expect(agent.mock.results).toHaveLength(5)
    expect(agent.calls.map((call) => (call.error ? 'error' : call.output.text()))).toEqual(['once', 'error', 'standing', 'impl: d', 'error'])
    agent.mockReset()
    expect((await agent('f')).text()).toBe('default')
  })
})
