import { describe, expect, test } from 'vitest'
import type { ModelResponse, Part } from '../../src/llm/types.js'
import { fakeAgent, fakeLLM, fakeProxy, fakeRequest, reply, userRequest } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

const call = (name: string, args: unknown = {}): Part => ({ type: 'tool-call', id: `call_${name}`, name, args })
/** A double whose replies asked for these tools, one reply per entry (an array = parallel calls). */
function llmCalling(...turns: Array<Part | Part[]>) {
  const responses: ModelResponse[] = turns.map((turn) => reply(Array.isArray(turn) ? turn : [turn]))
  return fakeLLM(responses.map(() => userRequest('go')), responses)
}

const trip = llmCalling(call('search', { q: 'Paris' }), [call('get_weather', { city: 'Paris', unit: 'C' }), call('book', { city: 'Paris' })], call('notify'))

describe('toHaveCalledToolsInOrder', () => {
  test("'subsequence' (the default): the listed calls in order, others between", () => {
    expect(trip).toHaveCalledToolsInOrder(['search', 'book'])
    expect(trip).toHaveCalledToolsInOrder(['search', { name: 'get_weather', args: { city: 'Paris' } }, 'notify'])
    expect(trip).toHaveCalledToolsInOrder([])
    expect(trip).not.toHaveCalledToolsInOrder(['book', 'search'])
    expect(trip).not.toHaveCalledToolsInOrder(['search', 'search'])
  })

  test("'exact': the same sequence, no more and no fewer", () => {
    expect(trip).toHaveCalledToolsInOrder(['search', 'get_weather', 'book', 'notify'], { mode: 'exact' })
    expect(trip).not.toHaveCalledToolsInOrder(['search', 'get_weather', 'book'], { mode: 'exact' })
    expect(trip).not.toHaveCalledToolsInOrder(['search', 'book', 'get_weather', 'notify'], { mode: 'exact' })
    expect(llmCalling()).toHaveCalledToolsInOrder([], { mode: 'exact' })
  })

  test("'unordered': the same calls in any order; 'superset': the listed ones among others", () => {
    expect(trip).toHaveCalledToolsInOrder(['notify', 'book', 'search', 'get_weather'], { mode: 'unordered' })
    expect(trip).not.toHaveCalledToolsInOrder(['notify', 'book', 'search'], { mode: 'unordered' })
    expect(trip).toHaveCalledToolsInOrder(['notify', 'search'], { mode: 'superset' })
    expect(trip).not.toHaveCalledToolsInOrder(['notify', 'notify'], { mode: 'superset' })
    expect(trip).not.toHaveCalledToolsInOrder(['cancel'], { mode: 'superset' })
  })

  test('a broad matcher does not take the one call a narrower expectation needs', () => {
    const two = llmCalling(call('get_weather', { city: 'Paris' }), call('get_time', { city: 'Rome' }))
    // First-fit would give get_weather to the broad matcher and leave the narrow one without a call.
    expect(two).toHaveCalledToolsInOrder([expect.stringMatching(/^get_/), { name: 'get_weather', args: { city: 'Paris' } }], { mode: 'unordered' })
  })

  test('args are a subset and take asymmetric matchers; names take them too', () => {
    expect(trip).toHaveCalledToolsInOrder([{ name: 'get_weather', args: { unit: expect.stringMatching(/^[CF]$/) } }])
    expect(trip).toHaveCalledToolsInOrder([expect.stringContaining('weather'), 'notify'])
    expect(trip).not.toHaveCalledToolsInOrder([{ name: 'get_weather', args: { city: 'Rome' } }])
  })

  test('reads a FakeProxy through each request’s response', () => {
    const proxy = fakeProxy([
      fakeRequest(userRequest('a'), { response: reply([call('search')]) }),
      fakeRequest(userRequest('b')),
      fakeRequest(userRequest('c'), { response: reply([call('book')]) }),
    ])
    expect(proxy).toHaveCalledToolsInOrder(['search', 'book'], { mode: 'exact' })
  })

  test('the failure shows the actual sequence and why it does not match', () => {
    const message = plain(failureOf(() => expect(trip).toHaveCalledToolsInOrder(['search', 'notify', 'book'])))
    expect(message).toContain('Expected (subsequence): these calls in this order (others may come between)')
    expect(message).toContain('search, notify, book')
    expect(message).toContain('The 3rd expected call was not found after the 2nd expected call (matched by the 4th tool call).')
    expect(message).toContain(
      [
        'Received tool calls, in order:',
        '  1st: search({"q": "Paris"})',
        '  2nd: get_weather({"city": "Paris", "unit": "C"})',
        '  3rd: book({"city": "Paris"})',
        '  4th: notify({})',
      ].join('\n'),
    )
    expect(message).toContain('Number of tool calls: 4')
    const exact = plain(failureOf(() => expect(trip).toHaveCalledToolsInOrder(['search', 'get_weather'], { mode: 'exact' })))
    expect(exact).toContain('The 3rd tool call was not expected: 2 more than listed.')
    const superset = plain(failureOf(() => expect(trip).toHaveCalledToolsInOrder(['search', { name: 'cancel', args: { id: 1 } }], { mode: 'superset' })))
    expect(superset).toContain('cancel({"id": 1})')
    expect(superset).toContain('Not found: the 2nd expected call.')
    const none = plain(failureOf(() => expect(llmCalling()).toHaveCalledToolsInOrder(['search'])))
    expect(none).toContain('Received tool calls, in order:\n  (none)')
  })

  test('under .not, the failure says the calls did match', () => {
    const message = plain(failureOf(() => expect(trip).not.toHaveCalledToolsInOrder(['search'])))
    expect(message).toContain('expect(received).not.toHaveCalledToolsInOrder(calls)')
    expect(message).toContain('Expected (subsequence): not these calls in this order')
  })

  test('an unknown mode, bad calls or a MockAgent are clear errors', () => {
    expect(() => expect(trip).toHaveCalledToolsInOrder(['search'], { mode: 'sequence' as 'exact' })).toThrow(
      `[agent-doubles] toHaveCalledToolsInOrder: option mode must be one of 'exact', 'subsequence', 'unordered', 'superset', got "sequence"`,
    )
    expect(() => expect(trip).toHaveCalledToolsInOrder(['search'], { order: 'exact' } as object)).toThrow(/unknown option "order"/)
    expect(() => expect(trip).toHaveCalledToolsInOrder('search' as unknown as string[])).toThrow(/calls must be an array/)
    expect(() => expect(trip).toHaveCalledToolsInOrder([{ tool: 'search' } as unknown as string])).toThrow(
      /calls\[0\] must be a tool name \(a string\) or \{ name, args\? \}, got \{"tool":"search"\}/,
    )
    expect(() => expect(fakeAgent('a', [])).toHaveCalledToolsInOrder([])).toThrow(/must be a ScriptedLLM or a FakeProxy, got a MockAgent/)
  })
})
