import { describe, expect, it } from 'vitest'
import { ScriptedLLM, scriptedLLM } from '../../src/llm/scripted-llm.js'
import { lastUserText, toolCall } from '../../src/llm/helpers.js'
import { KIND } from '../../src/kinds.js'
import { liveDoubles } from '../../src/registry.js'
import type { ModelRequest, StreamEvent } from '../../src/llm/types.js'

function ask(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text }] }], stream: false, ...extra }
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = []
  for await (const event of events) out.push(event)
  return out
}

const textOf = (content: { type: string; text?: string }[]): string =>
  content.filter((p) => p.type === 'text').map((p) => p.text).join('')

describe('script forms', () => {
  it('echoes the last user text with no script, and "" when there is none', async () => {
    const llm = scriptedLLM()
    expect(textOf((await llm.generate(ask('ping'))).content)).toBe('ping')
    const none = await llm.generate({ model: 'm', messages: [], stream: false })
    expect(none.content).toEqual([{ type: 'text', text: '' }])
  })

  it('matches a map case-insensitively by substring, first key in insertion order, else echoes', async () => {
    const llm = scriptedLLM({ hello: 'hi there', 'hello world': 'never reached', 'what is 2+2': '4' })
    expect(textOf((await llm.generate(ask('Well, HELLO World!'))).content)).toBe('hi there')
    expect(textOf((await llm.generate(ask('so, What Is 2+2?'))).content)).toBe('4')
    expect(textOf((await llm.generate(ask('unmatched'))).content)).toBe('unmatched')
  })

  it('calls a function with the whole request, sync or async', async () => {
    const llm = scriptedLLM(async (req) => `you said: ${lastUserText(req)} (${req.model})`)
    expect(textOf((await llm.generate(ask('hey'))).content)).toBe('you said: hey (m)')
  })

  it('answers an array one reply per call, then throws the exhaustion error', async () => {
    const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.'])
    const first = await llm.generate(ask('weather?'))
    expect(first.content).toEqual([{ type: 'tool-call', id: 'call_1_1', name: 'get_weather', args: { city: 'Paris' } }])
    expect(first.finishReason).toBe('tool-calls')
    const second = await llm.generate(ask('weather?'))
    expect(second).toMatchObject({ content: [{ type: 'text', text: 'It is sunny in Paris.' }], finishReason: 'stop', model: 'm' })
    await expect(llm.generate(ask('again'))).rejects.toThrow(/^scripted: script exhausted at turn 3 \(the script has 2 turns/)
    expect(llm.turnsRemaining).toBe(0)
    expect(llm.callCount).toBe(3)
    expect(llm.responses[2]).toBeUndefined()
  })

  it('fails the call with an Error reply, consuming its turn', async () => {
    const boom = new Error('upstream down')
    const llm = scriptedLLM([boom, 'recovered'])
    await expect(llm.generate(ask('a'))).rejects.toBe(boom)
    expect(textOf((await llm.generate(ask('a'))).content)).toBe('recovered')
    expect(llm.responses.map((r) => r === undefined)).toEqual([true, false])
  })

  it('fails with an Error a function returns, and with one it throws', async () => {
    await expect(scriptedLLM(() => new RangeError('nope')).generate(ask('x'))).rejects.toThrow(RangeError)
    await expect(
      scriptedLLM(() => {
        throw new Error('thrown')
      }).generate(ask('x')),
    ).rejects.toThrow('thrown')
  })
})

describe('reply forms', () => {
  it('accepts the short object form, with overrides', async () => {
    const llm = scriptedLLM([
      { text: 'ok', reasoning: 'thinking', toolCalls: [{ name: 'a', args: { x: 1 } }], usage: { outputTokens: 99 } },
      { text: 'cut', finishReason: 'length' },
    ])
    const first = await llm.generate(ask('q'))
    expect(first.content).toEqual([
      { type: 'reasoning', text: 'thinking' },
      { type: 'text', text: 'ok' },
      { type: 'tool-call', id: 'call_1_1', name: 'a', args: { x: 1 } },
    ])
    expect(first.finishReason).toBe('tool-calls')
    expect(first.usage.outputTokens).toBe(99)
    expect((await llm.generate(ask('q'))).finishReason).toBe('length')
  })

  it('accepts an array of parts and a full ModelResponse', async () => {
    const llm = scriptedLLM([
      ['Looking it up.', toolCall('search', { q: 'x' }, 'my-id')],
      { content: [{ type: 'text', text: 'full' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2 }, id: 'r1' },
    ])
    expect((await llm.generate(ask('q'))).content).toEqual([
      { type: 'text', text: 'Looking it up.' },
      { type: 'tool-call', id: 'my-id', name: 'search', args: { q: 'x' } },
    ])
    expect(await llm.generate(ask('q'))).toEqual({
      content: [{ type: 'text', text: 'full' }],
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 2 },
      model: 'm',
      id: 'r1',
    })
  })

  it('gives each call a fresh copy: mutating a response changes no later one', async () => {
    const llm = scriptedLLM({ a: { text: 'same' } })
    const first = await llm.generate(ask('a'))
    ;(first.content[0] as { text: string }).text = 'mutated'
    expect(textOf((await llm.generate(ask('a'))).content)).toBe('same')
  })

  it('rejects replies the neutral model cannot carry, when they are given', () => {
    expect(() => scriptedLLM([{ toolCalls: 'x' }] as never)).toThrow(
      /\[agent-doubles\] ScriptedLLM: turn 1 of the script\.toolCalls must be an array/,
    )
    expect(() => scriptedLLM({ hi: Symbol('s') } as never)).toThrow(/reply for "hi" must be .*got Symbol\(s\)/)
    expect(() => scriptedLLM(['ok', () => 'x'] as never)).toThrow(/turn 2 of the script must be a reply.*got a function/)
    expect(() => scriptedLLM([42] as never)).toThrow(TypeError)
    expect(() => scriptedLLM([[]] as never)).toThrow(/not empty/)
    expect(() => scriptedLLM([{}] as never)).toThrow(/carrying text, toolCalls or reasoning/)
    expect(() => scriptedLLM([{ txt: 'typo' }] as never)).toThrow(/key "txt"/)
    expect(() => scriptedLLM([{ text: 'x', finishReason: 'done' }] as never)).toThrow(/finishReason must be/)
    expect(() => scriptedLLM([{ content: [{ type: 'video' }] }] as never)).toThrow(/content\[0\]\.type must be/)
  })

  it('rejects a bad reply from a function at the call that returned it', async () => {
    const llm = scriptedLLM(() => undefined as never)
    await expect(llm.generate(ask('x'))).rejects.toThrow(/the reply returned by the script function at call 1 must be .*got undefined/)
  })

  it('rejects scripts of the wrong type and bad options', () => {
    expect(() => scriptedLLM(42 as never)).toThrow(/ScriptedLLM: script must be .*got 42/)
    expect(() => scriptedLLM('hello' as never)).toThrow(TypeError)
    expect(() => scriptedLLM(undefined, { slots: 0 })).toThrow(/option slots must be a positive integer, got 0/)
    expect(() => scriptedLLM(undefined, { chunking: 'lines' as never })).toThrow(/option chunking/)
    expect(() => scriptedLLM(undefined, { colour: 'red' } as never)).toThrow(/unknown option "colour"/)
    // Beside options, an object is the script even when its keys look like option names.
    expect(() => scriptedLLM({ slots: 2 }, { model: 'x' })).toThrow(/ScriptedLLM: .*reply.*got 2/)
    expect(() => scriptedLLM(['x'], 5 as never)).toThrow(/ScriptedLLM: options must be an object, got 5/)
    // Names of Object.prototype members are unknown options, not a crash; alone they make a map.
    expect(() => scriptedLLM(['x'], { toString: 1 } as never)).toThrow(/unknown option "toString"/)
    expect(scriptedLLM({ constructor: 'hi' } as never).turnsRemaining).toBeUndefined()
    expect(() => toolCall('' as string)).toThrow(/toolCall: name must be a non-empty string/)
  })
})

describe('options and surface', () => {
  it('reads an object as options only when every key is an option name', async () => {
    const asOptions = scriptedLLM({ model: 'tiny', usage: { inputTokens: 3, outputTokens: 4 } })
    expect(await asOptions.generate(ask('echo me'))).toMatchObject({
      content: [{ type: 'text', text: 'echo me' }],
      model: 'tiny',
      usage: { inputTokens: 3, outputTokens: 4 },
    })
    const asMap = scriptedLLM({ model: 'a map value', other: 'x' })
    expect(textOf((await asMap.generate(ask('which model?'))).content)).toBe('a map value')
  })

  it('estimates usage deterministically from the text', async () => {
    const llm = scriptedLLM(['12345678'])
    const response = await llm.generate(ask('abcd'))
    expect(response.usage).toEqual({ inputTokens: 1, outputTokens: 2 })
  })

  it('records deep copies of every request, in order', async () => {
    const llm = scriptedLLM()
    const req = ask('first')
    await llm.generate(req)
    ;(req.messages[0].content[0] as { text: string }).text = 'mutated'
    await llm.generate(ask('second'))
    expect(llm.requests.map(lastUserText)).toEqual(['first', 'second'])
  })

  it('streams word chunks, char chunks and n-char chunks, ending with one finish', async () => {
    const words = await collect(scriptedLLM(['hello big world']).stream(ask('x')))
    expect(words.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual(['hello ', 'big ', 'world', 'finish'])
    const chars = await collect(scriptedLLM(['abc'], { chunking: 'chars' }).stream(ask('x')))
    expect(chars.filter((e) => e.type === 'text-delta')).toHaveLength(3)
    const fixed = await collect(scriptedLLM([['abcde', toolCall('t', {})]], { chunking: 2 }).stream(ask('x')))
    expect(fixed.map((e) => e.type === 'text-delta' ? e.text : e.type)).toEqual(['ab', 'cd', 'e', 'tool-call', 'finish'])
    const finish = fixed.at(-1)
    expect(finish?.type === 'finish' && finish.response.finishReason).toBe('tool-calls')
  })

  it('waits the configured latency before and between chunks', async () => {
    const llm = scriptedLLM(['a b'], { latency: { firstChunkMs: 30, chunkMs: 5 } })
    const started = performance.now()
    await collect(llm.stream(ask('x')))
    // Three events: 30 + 5 + 5 ms at the least; only a lower bound, which cannot flake.
    expect(performance.now() - started).toBeGreaterThanOrEqual(38)
  })

  it('fails a stream with an Error reply on the first read', async () => {
    const llm = scriptedLLM([new Error('stream failed')])
    await expect(collect(llm.stream(ask('x')))).rejects.toThrow('stream failed')
  })

  it('holds calls beyond `slots` and serves them first come, first served', async () => {
    const started: string[] = []
    const gates = new Map<string, () => void>()
    const llm = scriptedLLM(
      (req) => {
        const text = lastUserText(req)
        started.push(text)
        return new Promise<string>((resolve) => gates.set(text, () => resolve(text)))
      },
      { slots: 2 },
    )
    const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5))
    const calls = ['a', 'b', 'c', 'd', 'e'].map((t) => llm.generate(ask(t)))
    await tick()
    expect(started).toEqual(['a', 'b'])
    gates.get('b')!()
    await tick()
    expect(started).toEqual(['a', 'b', 'c'])
    gates.get('a')!()
    await tick()
    expect(started).toEqual(['a', 'b', 'c', 'd'])
    gates.get('c')!()
    gates.get('d')!()
    await tick()
    gates.get('e')!()
    const answers = await Promise.all(calls)
    expect(answers.map((r) => textOf(r.content))).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(llm.maxConcurrent).toBe(2)
  })

  it('counts concurrency without slots', async () => {
    const llm = scriptedLLM(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      return 'x'
    })
    await Promise.all([1, 2, 3].map(() => llm.generate(ask('x'))))
    expect(llm.maxConcurrent).toBe(3)
  })

  it('assertComplete lists the unconsumed turns', async () => {
    const llm = scriptedLLM(['one', toolCall('two', { n: 2 }), 'three'])
    await llm.generate(ask('x'))
    expect(() => llm.assertComplete()).toThrow(/2 of 3 scripted turns were not consumed:\n {2}turn 2: toolCall\(two, \{"n":2\}\)\n {2}turn 3: "three"/)
    await llm.generate(ask('x'))
    await llm.generate(ask('x'))
    expect(() => llm.assertComplete()).not.toThrow()
    expect(() => scriptedLLM().assertComplete()).not.toThrow()
    expect(scriptedLLM().turnsRemaining).toBeUndefined()
  })

  it('fork() starts a new cursor over the same script; reset() clears records and rewinds', async () => {
    const llm = scriptedLLM(['first', 'second'])
    await llm.generate(ask('x'))
    const fork = llm.fork()
    expect(textOf((await fork.generate(ask('x'))).content)).toBe('first')
    expect(fork.callCount).toBe(1)
    expect(textOf((await llm.generate(ask('x'))).content)).toBe('second')
    llm.reset()
    expect(llm.requests).toEqual([])
    expect(llm.responses).toEqual([])
    expect(llm.turnsRemaining).toBe(2)
    expect(textOf((await llm.generate(ask('x'))).content)).toBe('first')
  })

  it('is branded, registered, recognised by instanceof, and declares its capabilities', () => {
    const llm = new ScriptedLLM()
    expect(llm[KIND]).toBe('ScriptedLLM')
    expect(liveDoubles()).toContain(llm)
    expect({ [KIND]: 'ScriptedLLM' } instanceof ScriptedLLM).toBe(true)
    expect({} instanceof ScriptedLLM).toBe(false)
    expect(llm.capabilities).toEqual({ contextWindow: 1_000_000, structuredOutput: true, local: false })
    expect(llm.session('a/b')).toBe(llm)
  })

  it('rejects a request that is not a ModelRequest', async () => {
    await expect(scriptedLLM().generate(undefined as never)).rejects.toThrow(/ScriptedLLM: request must be a ModelRequest/)
  })
})
