/**
 * SPEC §19: seeded chaos on proxies and lanes (decisions, records, the failure context's line,
 * AGENT_DOUBLES_CHAOS_SEED), misbehaviours in rules files, the control API and the CLI flag, and
 * bad input — each a TypeError naming the option and the accepted values.
 */
import { describe, expect, test, vi } from 'vitest'
import OpenAI from 'openai'
import { chaosDecision, chaosKinds, misbehave, providerErrorNames, ScriptedLLM } from '../../src/index.js'
import { renderRecentConversation } from '../../src/render/conversation.js'
import { parseChaosFlag } from '../../src/cli/chaos-flag.js'
import { openaiFor, startProxy } from '../proxy/helpers.js'

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] }

describe('chaosDecision', () => {
  test('a pure function of seed, test name and request number, at about the rate', () => {
    const config = { seed: 42, rate: 0.3, kinds: chaosKinds }
    const first = Array.from({ length: 1000 }, (_, n) => chaosDecision(config, 'suite > test', n + 1))
    const again = Array.from({ length: 1000 }, (_, n) => chaosDecision(config, 'suite > test', n + 1))
    expect(again).toEqual(first)
    const hits = first.filter(Boolean).length
    expect(hits).toBeGreaterThan(240)
    expect(hits).toBeLessThan(360)
    // Another test name or seed draws otherwise.
    expect(Array.from({ length: 50 }, (_, n) => chaosDecision(config, 'suite > other', n + 1))).not.toEqual(first.slice(0, 50))
    expect(Array.from({ length: 50 }, (_, n) => chaosDecision({ ...config, seed: 43 }, 'suite > test', n + 1))).not.toEqual(first.slice(0, 50))
    expect(chaosDecision({ ...config, rate: 0 }, 'x', 1)).toBeUndefined()
    expect(chaosDecision({ seed: 1, rate: 1, kinds: ['empty'] }, 'x', 1)).toBe('empty')
  })
})

describe('proxy.chaos()', () => {
  test('every request gets a fault at rate 1, recorded with the seed and its number; false turns it off', async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    proxy.chaos({ seed: 3, rate: 1, kinds: ['refusal'] })
    for (let i = 0; i < 2; i++) expect((await client.chat.completions.create(ask)).choices[0].message.refusal).toMatch(/can't help/)
    proxy.chaos(false)
    expect((await client.chat.completions.create(ask)).choices[0].message.refusal).toBeNull()
    expect(proxy.requests.map((request) => request.fault)).toEqual([
      { kind: 'refusal', source: 'chaos', seed: 3, request: 1 },
      { kind: 'refusal', source: 'chaos', seed: 3, request: 2 },
      undefined,
    ])
  })

  test('provider errors and transport faults: the SDK sees the real error', async () => {
    const proxy = await startProxy()
    proxy.chaos({ seed: 1, rate: 1, kinds: ['rate_limit'] })
    await expect(openaiFor(proxy).chat.completions.create(ask)).rejects.toBeInstanceOf(OpenAI.RateLimitError)
    expect(proxy.requests[0]).toMatchObject({ status: 429, fault: { kind: 'rate_limit', source: 'chaos' } })
    proxy.chaos({ seed: 1, rate: 1, kinds: ['disconnect'] })
    const stream = await openaiFor(proxy).chat.completions.create({ ...ask, stream: true })
    await expect(async () => {
      for await (const _ of stream) void _
    }).rejects.toThrow()
  })

  test('lanes with the same test name get the same faults, whichever runs first', async () => {
    const proxy = await startProxy({ chaos: { seed: 11, rate: 0.5, kinds: ['empty', 'refusal', 'truncated'] } })
    const faultsOf = async (name: string) => {
      const lane = proxy.lane(name)
      const client = new OpenAI({ apiKey: 'k', baseURL: `${lane.url}/v1`, maxRetries: 0 })
      for (let i = 0; i < 8; i++) await client.chat.completions.create(ask)
      const faults = lane.requests.map((request) => request.fault?.kind ?? null)
      await lane.close()
      return faults
    }
    const [a1, b1] = [await faultsOf('suite > a'), await faultsOf('suite > b')]
    const [b2, a2] = await Promise.all([faultsOf('suite > b'), faultsOf('suite > a')])
    expect(a2).toEqual(a1)
    expect(b2).toEqual(b1)
    expect(a1.some(Boolean) && a1.some((fault) => fault === null)).toBe(true)
  })

  test('the failure context opens with the seed and the faults', async () => {
    const proxy = await startProxy()
    proxy.chaos({ seed: 5, rate: 1, kinds: ['empty'] })
    await openaiFor(proxy).chat.completions.create(ask)
    const lines = renderRecentConversation(proxy.requests, proxy.refusals)
    expect(lines[0]).toBe('chaos seed 5 (replay with AGENT_DOUBLES_CHAOS_SEED=5): #1 empty')
  })

  test('AGENT_DOUBLES_CHAOS_SEED replays: it wins over the seed given', async () => {
    vi.stubEnv('AGENT_DOUBLES_CHAOS_SEED', '777')
    try {
      const proxy = await startProxy()
      proxy.chaos({ seed: 1, rate: 1, kinds: ['empty'] })
      await openaiFor(proxy).chat.completions.create(ask)
      expect(proxy.requests[0].fault?.seed).toBe(777)
    } finally {
      vi.unstubAllEnvs()
    }
  })

  test('with no seed, the run seed is used and printed once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const proxy = await startProxy()
      proxy.chaos({ rate: 1, kinds: ['empty'] })
      proxy.chaos({ rate: 1, kinds: ['empty'] })
      await openaiFor(proxy).chat.completions.create(ask)
      const seed = proxy.requests[0].fault?.seed
      expect(Number.isInteger(seed)).toBe(true)
      const printed = warn.mock.calls.filter(([line]) => String(line).includes('chaos seed'))
      expect(printed.length).toBeLessThanOrEqual(1)
    } finally {
      warn.mockRestore()
    }
  })
})

describe('misbehave() in scripts, rules files, lanes and the control API', () => {
  test('a rules file reply { "misbehave": kind } and a script reply', async () => {
    const llm = await ScriptedLLM.fromRules('[{ "match": { "lastUser": "/weather/" }, "reply": { "misbehave": "unknown_tool", "tool": "get_forecast" } }, { "match": {}, "reply": "fine" }]')
    const proxy = await startProxy({ llm })
    const client = openaiFor(proxy)
    const call = (await client.chat.completions.create({ ...ask, messages: [{ role: 'user', content: 'weather?' }] })).choices[0].message.tool_calls?.[0]
    expect(call?.type === 'function' && call.function.name).toBe('get_forecast')
    proxy.use(new ScriptedLLM([misbehave('empty'), 'after']))
    expect((await client.chat.completions.create(ask)).choices[0].message.content).toBe('')
    expect((await client.chat.completions.create(ask)).choices[0].message.content).toBe('after')
  })

  test('lane.misbehave() belongs to the lane', async () => {
    const proxy = await startProxy()
    const lane = proxy.lane('one')
    lane.misbehave('content_filter')
    const other = proxy.lane('two')
    const ofLane = (url: string) => new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 }).chat.completions.create(ask)
    expect((await ofLane(other.url)).choices[0].finish_reason).toBe('stop')
    expect((await ofLane(lane.url)).choices[0].finish_reason).toBe('content_filter')
  })

  test('the control API: POST misbehave, POST and DELETE chaos, bad input is a 400 naming the kinds', async () => {
    const proxy = await startProxy({ controlApi: true })
    const post = (path: string, body: unknown, method = 'POST') =>
      fetch(`${proxy.url}/_agent-doubles/${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect((await post('misbehave', { kind: 'truncated', times: 1 })).status).toBe(200)
    expect((await openaiFor(proxy).chat.completions.create(ask)).choices[0].finish_reason).toBe('length')
    expect((await post('chaos', { seed: 2, rate: 1, kinds: ['refusal'] })).status).toBe(200)
    expect((await openaiFor(proxy).chat.completions.create(ask)).choices[0].message.refusal).not.toBeNull()
    expect((await fetch(`${proxy.url}/_agent-doubles/chaos`, { method: 'DELETE' })).status).toBe(200)
    expect((await openaiFor(proxy).chat.completions.create(ask)).choices[0].message.refusal).toBeNull()
    const bad = await post('misbehave', { kind: 'nonsense' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain('invalid_tool_args')
  })
})

describe('bad input: a TypeError naming the option and the accepted values', () => {
  test('chaos: unknown kind, rate outside [0, 1], a seed that is not an integer, no rate', async () => {
    const proxy = await startProxy()
    expect(() => proxy.chaos({ seed: 1, rate: 0.5, kinds: ['gremlins' as never] })).toThrow(/option kinds has an unknown kind "gremlins"; valid kinds: invalid_tool_args, .*disconnect, stall, malformed/)
    expect(() => proxy.chaos({ seed: 1, rate: 1.5 })).toThrow(/rate must be a number from 0 to 1, got 1\.5/)
    expect(() => proxy.chaos({ seed: 1, rate: -0.1 })).toThrow(TypeError)
    expect(() => proxy.chaos({ seed: 1.5, rate: 0.1 })).toThrow(/seed must be an integer .*got 1\.5/)
    expect(() => proxy.chaos({ seed: 1 } as never)).toThrow(/rate must be a number from 0 to 1/)
    expect(() => proxy.chaos({ seed: 1, rate: 0.1, kinds: [] })).toThrow(/kinds must be a non-empty array/)
    for (const name of providerErrorNames) expect(chaosKinds).toContain(name)
  })

  test('misbehave: unknown kind, bad options, bad times', async () => {
    const proxy = await startProxy()
    expect(() => misbehave('gremlins' as never)).toThrow(/unknown misbehaviour "gremlins"; valid kinds: invalid_tool_args, schema_violation/)
    expect(() => proxy.misbehave('oops' as never)).toThrow(TypeError)
    expect(() => proxy.misbehave('truncated', { at: 'middle' as never })).toThrow(/at must be 'text' or 'tool-call'/)
    expect(() => proxy.misbehave('empty', { times: 0 })).toThrow(/times must be an integer of at least 1/)
    expect(() => new ScriptedLLM([{ misbehave: 'nope' } as never])).toThrow(/unknown misbehaviour "nope"/)
  })

  test('the option chaos of new FakeProxy, and serve --chaos', async () => {
    await expect(() => startProxy({ chaos: { rate: 3 } })).rejects.toThrow(/option chaos.*rate must be a number from 0 to 1/)
    const fail = (message: string) => new TypeError(message)
    expect(parseChaosFlag('42:0.25', fail)).toEqual({ seed: 42, rate: 0.25 })
    expect(parseChaosFlag('42:1:empty,rate_limit', fail)).toEqual({ seed: 42, rate: 1, kinds: ['empty', 'rate_limit'] })
    expect(() => parseChaosFlag('x:0.1', fail)).toThrow(/--chaos must be seed:rate\[:kinds\]/)
    expect(() => parseChaosFlag('1:2', fail)).toThrow(/--chaos must be seed:rate/)
    expect(() => parseChaosFlag('1:0.5:gremlins', fail)).toThrow(/unknown kind "gremlins"; valid kinds/)
  })
})
