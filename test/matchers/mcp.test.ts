import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, test } from 'vitest'
import { KIND } from '../../src/kinds.js'
import type { McpCall } from '../../src/mcp/types.js'
import { fakeMcpServer } from '../../src/index.js'
import { fakeLLM } from './fakes.js'
import { failureOf, plain } from './setup-expect.js'

function fakeMcp(calls: Partial<McpCall>[]) {
  return { [KIND]: 'FakeMcpServer', calls: calls.map((call) => ({ session: 's1', args: {}, ...call })) }
}

const mcp = fakeMcp([
  { tool: 'get_weather', args: { city: 'Paris', unit: 'C' } },
  { tool: 'get_time', args: {} },
  { tool: 'get_weather', args: { city: 'Oslo' }, error: new Error('Input validation error') },
])

describe('toHaveCalledMcpTool', () => {
  test('matches the tool name, and the arguments as a subset', () => {
    expect(mcp).toHaveCalledMcpTool('get_weather')
    expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
    expect(mcp).toHaveCalledMcpTool(expect.stringMatching(/^get_/), { city: expect.any(String) })
    expect(mcp).not.toHaveCalledMcpTool('get_weather', { city: 'Rome' })
    expect(mcp).not.toHaveCalledMcpTool('search')
  })

  test('the failure lists every call, marking the matches for .not', () => {
    const message = plain(failureOf(() => expect(mcp).toHaveCalledMcpTool('search', { q: 'x' })))
    expect(message).toContain('Expected: a call of "search" with {"q": "x"}')
    expect(message).toContain('1st call: get_weather({"city": "Paris", "unit": "C"})')
    expect(message).toContain('3rd call: get_weather({"city": "Oslo"}) → error: Input validation error')
    expect(message).toContain('Number of calls: 3')
    const negated = plain(failureOf(() => expect(mcp).not.toHaveCalledMcpTool('get_time')))
    expect(negated).toContain('Expected: no call of "get_time"')
    expect(negated).toContain('→ 2nd call: get_time({})')
  })

  test('an empty record says so', () => {
    expect(plain(failureOf(() => expect(fakeMcp([])).toHaveCalledMcpTool('x')))).toContain('Received calls: (none)')
  })

  test('bad arguments and other doubles are TypeErrors', () => {
    expect(() => expect(mcp).toHaveCalledMcpTool(3 as never)).toThrow(/toHaveCalledMcpTool: name must be a tool name \(a string\), got 3/)
    expect(() => expect(fakeLLM([])).toHaveCalledMcpTool('x')).toThrow(/expect\(received\) must be a FakeMcpServer, got a ScriptedLLM/)
  })
})

describe('toHaveCalledMcpToolTimes', () => {
  test('counts the calls of one tool, failed ones included', () => {
    expect(mcp).toHaveCalledMcpToolTimes('get_weather', 2)
    expect(mcp).toHaveCalledMcpToolTimes('get_time', 1)
    expect(mcp).toHaveCalledMcpToolTimes('search', 0)
    expect(mcp).not.toHaveCalledMcpToolTimes('get_weather', 1)
  })

  test('the failure shows the count and the calls', () => {
    const message = plain(failureOf(() => expect(mcp).toHaveCalledMcpToolTimes('get_weather', 1)))
    expect(message).toContain('Expected: 1 call of "get_weather"')
    expect(message).toContain('Matching calls: 2')
    expect(message).toContain('→ 1st call: get_weather')
  })

  test('n must be a non-negative integer', () => {
    expect(() => expect(mcp).toHaveCalledMcpToolTimes('get_weather', -1)).toThrow(/n must be a non-negative integer, got -1/)
  })
})

test('on a real FakeMcpServer called by the SDK client', async () => {
  await using server = await fakeMcpServer({ tools: { get_weather: { responses: 'sunny' } } }).start()
  const client = new Client({ name: 'c', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
  try {
    await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } })
  } finally {
    await client.close()
  }
  expect(server).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
  expect(server).toHaveCalledMcpToolTimes('get_weather', 1)
})
