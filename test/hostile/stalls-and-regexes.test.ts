/**
 * SPEC §24: requests whose headers or body never finish time out (`requestTimeoutMs`, 60 s by
 * default) with a 408 in JSON, and free their sockets; the syntactic check that refuses rules
 * regexes that can backtrack exponentially; the schema step budget.
 */
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { parseRules } from '../../src/llm/rules.js'
import { catastrophicReason } from '../../src/llm/regex-safety.js'
import { FakeProxy } from '../../src/server/fake-proxy.js'
import { valueFor, VALUE_LIMITS } from '../../src/server/schema-values.js'

const open: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const item of open.splice(0)) await item.close()
})

/** Opens a socket, writes `start`, and resolves with all it read once the server closes it. */
function stall(url: string, start: string): Promise<string> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), '127.0.0.1', () => socket.write(start))
    let read = ''
    socket.on('data', (chunk) => (read += chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(read))
  })
}

describe('stalled requests time out', () => {
  test('1,000 sockets holding half a request each are answered 408 and closed after requestTimeoutMs', async () => {
    const proxy = await new FakeProxy({ requestTimeoutMs: 300 }).start()
    open.push(proxy)
    const starts = ['', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n', 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"model"']
    const answers = await Promise.all(Array.from({ length: 1000 }, (_, i) => stall(proxy.url, starts[i % starts.length])))
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /)
      expect(answer).toContain('"message":"[agent-doubles] the request did not arrive within 300 ms (requestTimeoutMs)"')
    }
    // The proxy still serves, and a request that arrives in time is not cut.
    const ok = await fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })
    expect(ok.status).toBe(200)
  }, 60_000)

  test('requestTimeoutMs must be a positive integer', () => {
    expect(() => new FakeProxy({ requestTimeoutMs: 0 })).toThrow(/requestTimeoutMs.*positive integer/)
  })
})

describe('rules regexes that can backtrack exponentially are refused when loaded', () => {
  test.each(['^(a+)+$', '(a*b)*', '(\\w+\\s?)*$', '(a|a)+', '(x+x+)+y', '(.*a){12}', '(a)\\1'])('%s', (source) => {
    expect(catastrophicReason(source)).toBeDefined()
    expect(() => parseRules(JSON.stringify([{ match: { lastUser: `/${source}/` }, reply: 'x' }]))).toThrow(/may backtrack exponentially/)
  })

  test.each(['weather', '^(hi|hello) there$', '[a-z]+\\d*', '(ab)+', '(?:a+)?', '[(]+)+', 'a{2,5}b+'])('%s is kept', (source) => {
    expect(catastrophicReason(source)).toBeUndefined()
  })

  test('/^(a+)+$/ through a rules file never runs: 28 characters stalled the proxy 1.2 s', () => {
    expect(() => parseRules('[{ "match": { "lastUser": "/^(a+)+$/" }, "reply": "x" }]')).toThrow(/nested quantifiers/)
  })
})

describe('the schema step budget', () => {
  test('anyOf over $ref, any depth, stops at the budget with SchemaTooLarge', () => {
    for (const levels of [20, 40, 200]) {
      const $defs: Record<string, unknown> = {}
      for (let i = 0; i < levels; i++) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] }
      $defs[`d${levels}`] = { type: 'array', minItems: 1e9 }
      expect(() => valueFor({ $ref: '#/$defs/d0', $defs })).toThrow(new RegExp(`takes more than (${VALUE_LIMITS.steps} steps|${VALUE_LIMITS.ms} ms)`))
    }
  })

  test('a legitimate schema of 5,000 values over $ref still fits', () => {
    const value = valueFor({ type: 'array', minItems: 5000, items: { $ref: '#/$defs/n' }, $defs: { n: { type: 'integer', minimum: 1 } } })
    expect(value).toHaveLength(5000)
  })
})
