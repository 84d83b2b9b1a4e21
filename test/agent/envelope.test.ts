import { describe, expect, it } from 'vitest'
import { Envelope, Metadata } from '../../src/agent/envelope.js'
import { ErrorInfo } from '../../src/agent/error-info.js'

describe('Envelope', () => {
  it('fromTask sets task, context and payload', () => {
    const env = Envelope.fromTask('weather today', 'in Paris')
    expect(env.task).toBe('weather today')
    expect(env.context).toBe('in Paris')
    expect(env.payload).toBe('weather today')
    expect(env.ok).toBe(true)
    expect(env.metadata.totals()).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 })
  })

  it('fromTask rejects a non-string task or context', () => {
    expect(() => Envelope.fromTask(42 as unknown as string)).toThrow(
      '[agent-doubles] Envelope.fromTask: task must be a string, got 42',
    )
    expect(() => Envelope.fromTask('t', 7 as unknown as string)).toThrow(TypeError)
  })

  it('text() returns strings as-is, empty for none, JSON otherwise', () => {
    expect(new Envelope({ payload: 'sunny' }).text()).toBe('sunny')
    expect(new Envelope().text()).toBe('')
    expect(new Envelope({ payload: null }).text()).toBe('')
    expect(new Envelope({ payload: { a: [1, 2] } }).text()).toBe('{"a":[1,2]}')
    expect(new Envelope({ payload: 3 }).text()).toBe('3')
    expect(new Envelope({ payload: false }).text()).toBe('false')
  })

  it('text() throws a clear TypeError for a payload JSON cannot write', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => new Envelope({ payload: cyclic }).text()).toThrow(/cannot be written as JSON/)
    expect(() => new Envelope({ payload: 1n }).text()).toThrow(TypeError)
  })

  it('fromError turns an Error, an ErrorInfo, a string and other values into an error envelope', () => {
    const fromError = Envelope.fromError(new RangeError('too far'))
    expect(fromError.ok).toBe(false)
    expect(fromError.payload).toBeUndefined()
    expect(fromError.error).toEqual(new ErrorInfo({ type: 'RangeError', message: 'too far' }))
    expect(fromError.metadata.totals()).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 })

    class ProviderDown extends Error {}
    expect(Envelope.fromError(new ProviderDown('503'), true).error).toMatchObject({
      type: 'ProviderDown',
      message: '503',
      retryable: true,
    })
    const info = new ErrorInfo({ type: 'RateLimit', message: 'slow', retryable: true })
    expect(Envelope.fromError(info).error).toBe(info)
    expect(Envelope.fromError(info, false).error?.retryable).toBe(false)
    expect(Envelope.fromError('boom').error).toMatchObject({ type: 'Error', message: 'boom', retryable: false })
    expect(Envelope.fromError({ code: 1 }).error?.message).toBe('{"code":1}')
  })

  it('builds metadata and error from plain objects and rejects unknown fields', () => {
    const env = new Envelope({ payload: 1, metadata: { inputTokens: 5 }, error: { type: 'X', message: 'y' } })
    expect(env.metadata).toBeInstanceOf(Metadata)
    expect(env.metadata.inputTokens).toBe(5)
    expect(env.error).toBeInstanceOf(ErrorInfo)
    expect(env.ok).toBe(false)
    expect(() => new Envelope({ paylod: 1 } as never)).toThrow(/Envelope: unknown option "paylod"/)
    expect(() => new Metadata({ inputTokens: -1 })).toThrow(/option inputTokens must be a non-negative number, got -1/)
  })

  it('is recognised by instanceof through its brand, from any module copy', () => {
    const foreign = Object.create({ [Symbol.for('agent-doubles.envelope')]: true })
    expect(foreign instanceof Envelope).toBe(true)
    expect({ task: 'x' } instanceof Envelope).toBe(false)
    expect((null as unknown) instanceof Envelope).toBe(false)
    const foreignInfo = Object.create({ [Symbol.for('agent-doubles.error-info')]: true })
    expect(foreignInfo instanceof ErrorInfo).toBe(true)
    expect(new Error('x') instanceof ErrorInfo).toBe(false)
    const foreignMetadata = Object.create({ [Symbol.for('agent-doubles.metadata')]: true })
    expect(foreignMetadata instanceof Metadata).toBe(true)
    expect({ inputTokens: 1 } instanceof Metadata).toBe(false)
  })

  it('keeps ordinary instanceof for subclasses', () => {
    class Special extends Envelope {}
    expect(new Special() instanceof Special).toBe(true)
    expect(new Envelope() instanceof Special).toBe(false)
    expect(new Special() instanceof Envelope).toBe(true)
  })
})

describe('Metadata', () => {
  it('defaults every amount to 0 and model/provider to undefined', () => {
    const m = new Metadata()
    expect(m).toMatchObject({ inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0, nestedCostUsd: 0 })
    expect(m.model).toBeUndefined()
    expect(m.provider).toBeUndefined()
  })

  it('totals() sums direct and nested amounts', () => {
    const m = new Metadata({
      inputTokens: 50,
      outputTokens: 30,
      costUsd: 0.002,
      nestedInputTokens: 10,
      nestedOutputTokens: 5,
      nestedCostUsd: 0.001,
    })
    expect(m.totals()).toEqual({ inputTokens: 60, outputTokens: 35, costUsd: 0.003 })
  })
})

describe('Envelope.rollUp', () => {
  it("adds each child's totals to the parent's nested amounts and keeps the rest", () => {
    const parent = new Envelope({
      task: 'brief',
      payload: 'report',
      metadata: { inputTokens: 100, outputTokens: 40, costUsd: 0.01, model: 'gpt', nestedInputTokens: 1 },
    })
    const a = new Envelope({ metadata: { inputTokens: 50, outputTokens: 20, costUsd: 0.001 } })
    const b = new Envelope({ metadata: { inputTokens: 5, outputTokens: 2, nestedInputTokens: 7, nestedCostUsd: 0.5 } })
    const rolled = Envelope.rollUp(parent, [a, b])

    expect(rolled).not.toBe(parent)
    expect(rolled.task).toBe('brief')
    expect(rolled.payload).toBe('report')
    expect(rolled.metadata).toMatchObject({ inputTokens: 100, outputTokens: 40, costUsd: 0.01, model: 'gpt' })
    expect(rolled.metadata.nestedInputTokens).toBe(1 + 50 + 12)
    expect(rolled.metadata.nestedOutputTokens).toBe(22)
    expect(rolled.metadata.nestedCostUsd).toBeCloseTo(0.501)
    expect(rolled.metadata.totals().inputTokens).toBe(163)
    // The parent is untouched.
    expect(parent.metadata.nestedInputTokens).toBe(1)
  })

  it('with no children returns an equal envelope', () => {
    const parent = new Envelope({ task: 't', payload: 'p', metadata: { inputTokens: 3 } })
    expect(Envelope.rollUp(parent, [])).toEqual(parent)
  })

  it('rejects a child that is not an envelope', () => {
    expect(() => Envelope.rollUp(new Envelope(), [{} as Envelope])).toThrow(
      /Envelope.rollUp: children\[0\] must be an Envelope/,
    )
    expect(() => Envelope.rollUp({} as Envelope, [])).toThrow(/parent must be an Envelope/)
  })
})

describe('ErrorInfo', () => {
  it('defaults retryable to false and validates its fields', () => {
    const info = new ErrorInfo({ type: 'Timeout', message: 'too slow' })
    expect(info).toMatchObject({ type: 'Timeout', message: 'too slow', retryable: false })
    expect(String(info)).toBe('Timeout: too slow')
    expect(() => new ErrorInfo({ type: 1, message: 'm' } as never)).toThrow(/ErrorInfo: option type must be a string/)
    expect(() => new ErrorInfo(undefined as never)).toThrow(TypeError)
  })
})
