import { describe, expect, test } from 'vitest'
import { installMatchers, matchers } from '../../matchers/index.js'
import { inline } from '../../matchers/inline.js'
import { ordinal } from '../../matchers/format.js'

describe('matchers entry', () => {
  test('exports every matcher of SPEC §6 as a plain object', () => {
    expect(Object.keys(matchers).sort()).toEqual(
      [
        'toBeErrorEnvelope',
        'toHaveBeenCalledWithTask',
        'toHaveBeenLastCalledWithTask',
        'toHaveBeenNthCalledWithTask',
        'toHaveConsumedAllTurns',
        'toHaveReceivedRequest',
        'toHaveReceivedRequests',
        'toHaveReceivedToolResult',
        'toHaveRefusedWith',
        'toHaveRegisteredDefinition',
        'toHaveRequestedTool',
        'toHaveText',
        'toHaveUsage',
        'toHaveCalledToolsInOrder',
        'toHaveUsedAtMost',
        'toHaveHitPromptCache',
        'toHaveSentValidRequests',
        'toHaveCalledMcpTool',
        'toHaveCalledMcpToolTimes',
      ].sort(),
    )
    for (const matcher of Object.values(matchers)) expect(typeof matcher).toBe('function')
  })

  test('installMatchers hands them to expect.extend, and rejects what has no extend', () => {
    const received: Record<string, unknown>[] = []
    installMatchers({ extend: (m: Record<string, unknown>) => received.push(m) })
    expect(Object.keys(received[0])).toEqual(Object.keys(matchers))
    expect(() => installMatchers({} as never)).toThrow(
      "[agent-doubles] installMatchers: expect must be a test runner's expect (with an extend method), got {}",
    )
  })
})

describe('message helpers', () => {
  test('ordinal', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th',
    ])
  })

  test('inline renders values on one line, asymmetric matchers by name', () => {
    expect(inline({ a: [1, 'x'], b: { c: null } })).toBe('{"a": [1, "x"], "b": {"c": null}}')
    expect(inline(new Uint8Array(12))).toBe('Uint8Array [12 bytes]')
    expect(inline(expect.stringContaining('sun'))).toMatch(/StringContaining.*"sun"/)
    const deep: Record<string, unknown> = {}
    let cursor = deep
    for (let i = 0; i < 10; i++) cursor = (cursor.next = {}) as Record<string, unknown>
    expect(inline(deep)).toContain('[Object]')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(inline(cyclic)).toContain('[Object]')
  })
})
