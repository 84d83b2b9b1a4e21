import { describe, expect, it } from 'vitest'
import { Envelope } from '../../src/agent/envelope.js'
import { ErrorInfo } from '../../src/agent/error-info.js'
import { MockAgent, mockAgent } from '../../src/agent/mock-agent.js'

describe('MockAgent responses: resolution rules', () => {
  it('map: case-sensitive substrings tried in insertion order', async () => {
    const agent = mockAgent({ weather: 'sunny', 'weather today': 'never reached', market: 'bullish' })
    expect((await agent('weather today')).text()).toBe('sunny')
    expect((await agent('the market now')).payload).toBe('bullish')
    await expect(agent('Weather today')).rejects.toThrow(/matched no response key/)
  })

  it("map: '*' is the catch-all wherever it stands", async () => {
    const agent = mockAgent({ '*': 'no data', weather: 'sunny' }, { name: 'researcher' })
    expect((await agent('weather')).text()).toBe('sunny')
    expect((await agent('stocks')).text()).toBe('no data')
  })

  it('map: no match and no catch-all rejects naming the agent, the task and the keys', async () => {
    const agent = mockAgent({ weather: 'sunny', market: 'bullish' }, { name: 'researcher' })
    await expect(agent('sports')).rejects.toThrow(
      `[agent-doubles] MockAgent "researcher": task "sports" matched no response key (keys: "weather", "market") and there is no '*' catch-all`,
    )
  })

  it('function: called with the input envelope; its result is a value, not matched again', async () => {
    const seen: Envelope[] = []
    const agent = mockAgent((env: Envelope) => {
      seen.push(env)
      return { weather: 'would be a map' }
    })
    const input = Envelope.fromTask('go', 'ctx')
    const out = await agent(input)
    expect(seen[0]).toBe(input)
    expect(out.payload).toEqual({ weather: 'would be a map' })
  })

  it('function: may be async; its Error result rejects and its throw rejects', async () => {
    expect((await mockAgent(async (env: Envelope) => `Report: ${env.text()}`)('x')).text()).toBe('Report: x')
    await expect(mockAgent(() => new TypeError('provider down'))('x')).rejects.toThrow('provider down')
    await expect(
      mockAgent(() => {
        throw new Error('thrown inside')
      })('x'),
    ).rejects.toThrow('thrown inside')
  })

  it('array: one value per call; past the end rejects naming the agent and the count', async () => {
    const agent = mockAgent(['first', 'second'], { name: 'planner' })
    expect((await agent('a')).text()).toBe('first')
    expect((await agent('b')).text()).toBe('second')
    await expect(agent('c')).rejects.toThrow(
      '[agent-doubles] MockAgent "planner": responses exhausted after 2 calls (pass cycle: true to wrap around)',
    )
  })

  it('array: cycle wraps around', async () => {
    const agent = mockAgent([1, 2], { cycle: true })
    const payloads = []
    for (let i = 0; i < 5; i++) payloads.push((await agent('t')).payload)
    expect(payloads).toEqual([1, 2, 1, 2, 1])
  })

  it('array: an empty list rejects', async () => {
    await expect(mockAgent([], { name: 'empty' })('t')).rejects.toThrow(
      '[agent-doubles] MockAgent "empty": the responses list is empty',
    )
  })

  it('anything else is the value for every call (including null and class instances)', async () => {
    const date = new Date(0)
    const agent = mockAgent(date)
    expect((await agent('a')).payload).toBe(date)
    expect((await agent('b')).payload).toBe(date)
    expect((await mockAgent(null)('x')).text()).toBe('')
    expect((await mockAgent(42)('x')).payload).toBe(42)
  })
})

describe('MockAgent responses: values', () => {
  it('a payload gets the default metadata and the input task/context', async () => {
    const env = await mockAgent('ok')(Envelope.fromTask('t', 'c'))
    expect(env).toBeInstanceOf(Envelope)
    expect(env.task).toBe('t')
    expect(env.context).toBe('c')
    expect(env.metadata).toMatchObject({
      inputTokens: 10,
      outputTokens: 20,
      costUsd: 0,
      model: 'mock',
      provider: 'mock',
      nestedInputTokens: 0,
    })
    expect(env.metadata.latencyMs).toBeGreaterThanOrEqual(0)
  })

  it('an Envelope is returned verbatim', async () => {
    const canned = new Envelope({ task: 'own', context: 'own ctx', payload: 'p', metadata: { inputTokens: 999 } })
    const out = await mockAgent(canned)('other task')
    expect(out).toBe(canned)
  })

  it('an Envelope fills only an undefined task and context from the input', async () => {
    const canned = new Envelope({ payload: 'p', metadata: { inputTokens: 7, model: 'x' } })
    const out = await mockAgent(canned)(Envelope.fromTask('in', 'ctx'))
    expect(out.task).toBe('in')
    expect(out.context).toBe('ctx')
    expect(out.payload).toBe('p')
    expect(out.metadata).toBe(canned.metadata)
    const half = new Envelope({ task: 'kept' })
    expect((await mockAgent(half)(Envelope.fromTask('in', 'ctx'))).task).toBe('kept')
  })

  it('an ErrorInfo becomes an error envelope with no tokens or cost', async () => {
    const info = new ErrorInfo({ type: 'RateLimit', message: 'slow down', retryable: true })
    const env = await mockAgent(info, { latencyMs: 12, model: 'm', provider: 'p', costUsd: 3 })('t')
    expect(env.ok).toBe(false)
    expect(env.error).toBe(info)
    expect(env.task).toBe('t')
    expect(env.metadata).toMatchObject({
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      latencyMs: 12,
      model: 'm',
      provider: 'p',
    })
  })

  it('an Error rejects the call with that very error', async () => {
    const error = new Error('provider timed out')
    await expect(mockAgent(['ok', error])('a')).resolves.toBeInstanceOf(Envelope)
    const agent = mockAgent({ fail: error, '*': 'fine' })
    await expect(agent('please fail')).rejects.toBe(error)
  })

  it('every option lands in the metadata', async () => {
    const agent = new MockAgent('x', {
      inputTokens: 50,
      outputTokens: 30,
      costUsd: 0.25,
      latencyMs: 7,
      model: 'gpt-test',
      provider: 'acme',
    })
    expect((await agent.run('t')).metadata).toMatchObject({
      inputTokens: 50,
      outputTokens: 30,
      costUsd: 0.25,
      latencyMs: 7,
      model: 'gpt-test',
      provider: 'acme',
    })
  })
})
