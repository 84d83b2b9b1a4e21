import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { z } from 'zod'
import { Envelope } from '../../src/agent/envelope.js'
import { MockAgent, mockAgent } from '../../src/agent/mock-agent.js'
import { KIND, kindOf } from '../../src/kinds.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('MockAgent: identity', () => {
  it('is callable, an instance of MockAgent, and named by its option', async () => {
    const researcher = mockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher' })
    expect(typeof researcher).toBe('function')
    expect(researcher).toBeInstanceOf(MockAgent)
    expect(researcher.name).toBe('researcher')
    expect(kindOf(researcher)).toBe('MockAgent')
    expect((await researcher('weather today')).text()).toBe('sunny')
    expect((await researcher.run('weather today')).text()).toBe('sunny')
    expect(new MockAgent('x').name).toBe('mock_agent')
  })

  it('keeps Function.prototype methods (call/apply/bind) working', async () => {
    const agent = mockAgent('ok')
    expect((await agent.call(null, 't')).text()).toBe('ok')
    expect((await agent.apply(null, ['t'])).text()).toBe('ok')
    expect(agent.callCount).toBe(2)
  })

  it('instanceof holds for a value branded as a MockAgent by another module copy', () => {
    const foreign = Object.assign(() => undefined, { [KIND]: 'MockAgent' })
    expect(foreign instanceof MockAgent).toBe(true)
    expect((() => undefined) instanceof MockAgent).toBe(false)
    expect(Object.assign(() => undefined, { [KIND]: 'ScriptedLLM' }) instanceof MockAgent).toBe(false)
  })

  it('subclasses work and are constructed through new.target', async () => {
    class Researcher extends MockAgent {
      shout(): string {
        return this.name.toUpperCase()
      }
    }
    const r = new Researcher('x', { name: 'r' })
    expect(r).toBeInstanceOf(Researcher)
    expect(r).toBeInstanceOf(MockAgent)
    expect(r.shout()).toBe('R')
    expect((await r('t')).text()).toBe('x')
    expect(mockAgent('x') instanceof Researcher).toBe(false)
  })

  it('types: the call signature takes a task and resolves to an Envelope', () => {
    const agent = mockAgent('x', { output: z.string() })
    expectTypeOf(agent).toBeCallableWith('task')
    expectTypeOf(agent).parameter(0).toEqualTypeOf<string | Envelope>()
    expectTypeOf(agent).returns.resolves.toEqualTypeOf<Envelope<string>>()
  })
})

describe('MockAgent: bad input', () => {
  it('rejects an unknown option, naming the agent and listing the known ones', () => {
    expect(() => mockAgent('x', { name: 'researcher', cylce: true } as never)).toThrow(
      /^\[agent-doubles\] MockAgent "researcher": unknown option "cylce"; expected one of name, description, output, cycle/,
    )
  })

  it.each([
    ['cycle', 'yes', 'option cycle must be a boolean, got "yes"'],
    ['delayMs', -5, 'option delayMs must be a non-negative number, got -5'],
    ['inputTokens', 1.5, 'option inputTokens must be a non-negative integer, got 1.5'],
    ['output', { parse() {} }, 'option output must be a Standard Schema (e.g. a zod schema)'],
    ['model', 3, 'option model must be a string, got 3'],
  ])('rejects option %s of the wrong type', (option, value, message) => {
    let error: unknown
    try {
      mockAgent('x', { name: 'researcher', [option]: value })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).message).toContain(`MockAgent "researcher": ${message}`)
  })

  it('rejects a bad name, non-object options and undefined responses', () => {
    expect(() => mockAgent('x', { name: '' })).toThrow('MockAgent: option name must be a non-empty string, got ""')
    expect(() => mockAgent('x', 'researcher' as never)).toThrow('MockAgent: options must be an object')
    expect(() => mockAgent(undefined, { name: 'r' })).toThrow(
      'MockAgent "r": responses must be a function, a map of task substrings, an array or a value, got undefined',
    )
  })

  it('rejects a task that is neither a string nor an Envelope, and records it', async () => {
    const agent = mockAgent('x', { name: 'researcher' })
    await expect(agent(42 as never)).rejects.toThrow(
      new TypeError('[agent-doubles] MockAgent "researcher": task must be a string or an Envelope, got 42'),
    )
    expect(agent.callCount).toBe(1)
    expect(agent.lastCall?.task).toBeUndefined()
    expect(agent.lastCall?.error).toBeInstanceOf(TypeError)
    expect(agent.mock.calls).toEqual([[42]])
  })
})

describe('MockAgent: output schema', () => {
  const Report = z.object({ title: z.string(), score: z.number() })

  it('accepts a payload that matches', async () => {
    const agent = mockAgent({ '*': { title: 'ok', score: 1 } }, { output: Report })
    const env = await agent('t')
    expect(env.payload).toEqual({ title: 'ok', score: 1 })
    expectTypeOf(env.payload).toEqualTypeOf<{ title: string; score: number } | undefined>()
  })

  it('rejects a mismatch naming the agent, the task and the issues, and records the error', async () => {
    const agent = mockAgent(() => ({ title: 'ok', score: 'high' }), { name: 'analyst', output: Report })
    const error: unknown = await agent('rate it').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toMatch(
      /^\[agent-doubles\] MockAgent "analyst": the payload for task "rate it" does not match the output schema: score: /,
    )
    expect((error as { issues: unknown[] }).issues).toHaveLength(1)
    expect(agent.lastCall?.error).toBe(error)
  })

  it('supports async validation and validates Envelope payloads too', async () => {
    const slowCheck = z.string().refine(async (s) => s.startsWith('ok'), 'must start with ok')
    await expect(mockAgent('ok then', { output: slowCheck })('t')).resolves.toBeInstanceOf(Envelope)
    await expect(mockAgent('nope', { output: slowCheck })('t')).rejects.toThrow('must start with ok')
    await expect(mockAgent(new Envelope({ payload: 3 }), { output: z.string() })('t')).rejects.toThrow(
      /does not match the output schema/,
    )
  })

  it('skips validation for error envelopes', async () => {
    const env = await mockAgent(Envelope.fromError(new Error('x')), { output: z.string() })('t')
    expect(env.ok).toBe(false)
  })
})

describe('MockAgent: timing', () => {
  it('waits delayMs before answering, and the delay counts toward latency', async () => {
    vi.useFakeTimers()
    const agent = mockAgent('late', { delayMs: 500 })
    let settled = false
    const pending = agent('t').then((env) => {
      settled = true
      return env
    })
    await vi.advanceTimersByTimeAsync(499)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const env = await pending
    expect(settled).toBe(true)
    expect(env.metadata.latencyMs).toBeGreaterThanOrEqual(500)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('uses the latencyMs option instead of the measured time', async () => {
    expect((await mockAgent('x', { latencyMs: 0 })('t')).metadata.latencyMs).toBe(0)
    expect((await mockAgent('x', { latencyMs: 250 })('t')).metadata.latencyMs).toBe(250)
  })
})

describe('MockAgent: stream, asTool, definition', () => {
  it('stream() yields the final text as one chunk and records the call', async () => {
    const agent = mockAgent({ a: 'alpha', '*': { b: 2 } })
    const chunks: string[] = []
    for await (const chunk of agent.stream('xyz')) chunks.push(chunk)
    expect(chunks).toEqual(['{"b":2}'])
    expect(agent.lastCall?.task).toBe('xyz')
  })

  it('asTool() gives a tool whose execute returns the envelope', async () => {
    const agent = mockAgent((env: Envelope) => `did ${env.task}`, { name: 'worker', description: 'Does work' })
    const tool = agent.asTool()
    expect(tool.name).toBe('worker')
    expect(tool.description).toBe('Does work')
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { task: { type: 'string', description: expect.any(String) } },
      required: ['task'],
      additionalProperties: false,
    })
    const env = await tool.execute({ task: 'job' })
    expect(env).toBeInstanceOf(Envelope)
    expect(env.text()).toBe('did job')
    expect(agent.callCount).toBe(1)
    await expect(tool.execute(undefined as never)).rejects.toThrow(/MockAgent "worker" tool: arguments must be an object/)
  })

  it('asTool() overrides and definition() defaults', () => {
    const agent = mockAgent('x', { name: 'helper' })
    expect(agent.asTool({ name: 'other', description: 'D' })).toMatchObject({ name: 'other', description: 'D' })
    expect(agent.definition()).toEqual({
      name: 'helper',
      description: 'Run the helper mock agent.',
      parameters: agent.asTool().parameters,
    })
    expect(() => agent.asTool({ nam: 'x' } as never)).toThrow(/unknown option "nam"/)
  })
})

describe('MockAgent: errors name the agent', () => {
  it("an unnamed agent's errors name it mock_agent, as the docs say", async () => {
    const agent = mockAgent({ weather: 'sunny' })
    await expect(agent('market')).rejects.toThrow(/^\[agent-doubles\] MockAgent "mock_agent": task "market" matched no response key/)
    expect(() => mockAgent('x', { cycle: 'yes' } as never)).toThrow('[agent-doubles] MockAgent "mock_agent": option cycle must be a boolean, got "yes"')
  })
})
