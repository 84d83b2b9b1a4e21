/**
 * SPEC §24's fuzz pass: seeded, bounded bodies over every route of every dialect (taken from
 * src/wire/dialects.ts, so a new dialect is fuzzed without being listed here), the control API
 * and FakeMcpServer's Streamable HTTP endpoint. Valid bodies changed in one to three places
 * (wrong types, prototype keys, huge numbers, deep nesting, cut or spoiled text, wrong content
 * types, unicode, empty containers, nulls) and bodies made at random. For every answer: no 5xx,
 * JSON (or the dialect's stream), an error body in the route's own shape, every model request
 * the route could read recorded; and the servers still answer afterwards.
 *
 * The seed is printed; `AGENT_DOUBLES_FUZZ_SEED=<n>` sends another run (or repeats a failing one).
 */
import { afterAll, describe, expect, test } from 'vitest'
import { allDialects, everyRoute } from '../../src/wire/dialects.js'
import { inputErrorBody } from '../../src/wire/dialect.js'
import { FakeProxy } from '../../src/server/fake-proxy.js'
import { FakeMcpServer } from '../../src/mcp/fake-mcp-server.js'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'
import { MAX_JSON_DEPTH } from '../../src/server/json-depth.js'
import { Random, fuzzSeed } from './fuzz/random.js'
import { mutatedBody, randomBody, type FuzzBody } from './fuzz/mutate.js'
import { seedBody } from './fuzz/seeds.js'
import { dropSockets, isStream, parseReply, send, shapeDifferences, type Reply } from './fuzz/wire.js'

const SEED = fuzzSeed()
/** Bodies per model route (changed valid ones, then random ones); about 40 routes, so about 2,200 bodies in all. */
const MUTATED_PER_ROUTE = 32
const RANDOM_PER_ROUTE = 6
const PER_CONTROL_ROUTE = 40
const MCP_BODIES = 300
console.log(`fuzz pass: seed ${SEED} (AGENT_DOUBLES_FUZZ_SEED=${SEED} repeats it)`)

const open: { close(): Promise<void> }[] = []
afterAll(async () => {
  dropSockets()
  for (const item of open.splice(0)) await item.close()
})

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i

/** How deep `value` nests arrays and objects. */
function depth(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0
  let deepest = 0
  for (const item of Object.values(value)) deepest = Math.max(deepest, depth(item))
  return deepest + 1
}

/** Whether the route reads `body` as a request (a JSON object under a JSON type): then it is recorded. */
function readable(body: FuzzBody, anyContentType: boolean): boolean {
  if (body.contentType !== undefined && !anyContentType && !JSON_TYPE.test(body.contentType)) return false
  let json: unknown
  try {
    json = JSON.parse(strictUtf8.decode(Buffer.isBuffer(body.text) ? body.text : Buffer.from(body.text)))
  } catch {
    return false
  }
  return json !== null && typeof json === 'object' && !Array.isArray(json) && depth(json) <= MAX_JSON_DEPTH
}

/** What is wrong with one answer, or `undefined`. */
function judge(reply: Reply, expectedError: (status: number) => unknown, success?: (json: unknown) => string | undefined): string | undefined {
  if (reply.status >= 500) return `${reply.status}: ${reply.text.slice(0, 200)}`
  if (reply.status < 400 && isStream(reply)) return undefined
  const parsed = parseReply(reply)
  if ('problem' in parsed) return `${reply.status} ${parsed.problem}`
  if (reply.status >= 400) {
    const differences = shapeDifferences(expectedError(reply.status), parsed.json)
    return differences.length > 0 ? `${reply.status} not in the route's error shape (${differences.join(', ')}): ${reply.text.slice(0, 200)}` : undefined
  }
  return success?.(parsed.json)
}

/** The first failure of each kind (route and problem, details aside), so one bug is listed once. */
function firstOfEach(failures: readonly string[]): string[] {
  const seen = new Set<string>()
  return failures.filter((failure) => {
    const kind = failure.replace(/\[.*?\] → /, '').replace(/:.*$/s, '').slice(0, 80) + failure.split(' ')[1]
    if (seen.has(kind)) return false
    seen.add(kind)
    return true
  })
}

/** The bodies for one route: its valid body changed, then bodies made at random. */
function bodiesFor(random: Random, seed: unknown, mutated: number, made: number): FuzzBody[] {
  return [
    ...Array.from({ length: mutated }, () => mutatedBody(random, seed)),
    ...Array.from({ length: made }, () => randomBody(random)),
  ]
}

describe(`fuzz pass (seed ${SEED})`, () => {
  test('the routes fuzzed reach every dialect in src/wire/dialects.ts', () => {
    const reached = new Set(everyRoute().map((route) => route.dialect))
    // A pattern without `examples` would leave its dialects out of the pass.
    expect(allDialects.filter((dialect) => !reached.has(dialect)).map((dialect) => dialect.id)).toEqual([])
  })

  test('every route of every dialect: no 5xx, JSON in the route’s shape, every readable request recorded', async () => {
    const proxy = await new FakeProxy().start()
    open.push(proxy)
    const random = new Random(SEED)
    const failures: string[] = []
    let sent = 0
    let modelRequests = 0
    let totalRecords = 0
    for (const route of everyRoute()) {
      // Per route, so reading the records (copies) stays cheap; the counts add up below.
      totalRecords += proxy.requests.length + proxy.refusals.length
      proxy.reset()
      const { dialect } = route
      const url = `${proxy.url}${route.path}${route.path.startsWith('/openai/') ? '?api-version=2024-10-21' : ''}`
      const expectedError = (status: number): unknown => dialect.errorAnswer?.(status, 'm')?.body ?? inputErrorBody(dialect.errorStyle, status, 'm')
      const seed = seedBody(dialect.id, route.path)
      // The valid body first: it must succeed, and its answer is the success shape the others are held to.
      const valid = await send(url, route.method, route.method === 'GET' ? undefined : { text: JSON.stringify(seed), contentType: 'application/json', note: 'valid' })
      const validJson = isStream(valid) ? undefined : (parseReply(valid) as { json?: unknown }).json
      if (valid.status !== 200) failures.push(`${route.path} valid body: ${valid.status} ${valid.text.slice(0, 200)}`)
      const successKeys = validJson !== null && typeof validJson === 'object' && !Array.isArray(validJson) ? Object.keys(validJson) : undefined
      const success = (json: unknown): string | undefined => {
        if (successKeys === undefined || Array.isArray(json)) return undefined
        const keys = json !== null && typeof json === 'object' ? Object.keys(json) : []
        const shared = successKeys.filter((key) => keys.includes(key)).length
        return shared * 2 >= successKeys.length ? undefined : `200 but not the route's success shape: ${JSON.stringify(json).slice(0, 200)}`
      }
      for (const body of bodiesFor(random, seed, MUTATED_PER_ROUTE, RANDOM_PER_ROUTE)) {
        const method = random.chance(0.03) ? random.pick(['GET', 'PUT', 'DELETE', 'PATCH']) : route.method
        const before = proxy.requests.length + proxy.refusals.length
        let reply: Reply
        try {
          reply = await send(url, method, method === 'GET' && route.method === 'GET' ? undefined : body)
        } catch (error) {
          failures.push(`${method} ${route.path} [${body.note}]: ${(error as Error).message}`)
          continue
        }
        sent++
        // A model list (GET) is recorded whatever it carries; a POST when its body is a JSON object.
        const expectRecord = method === route.method && (method === 'GET' || readable(body, dialect.anyContentType === true))
        if (expectRecord) modelRequests++
        const recorded = proxy.requests.length + proxy.refusals.length - before
        const problem = judge(reply, expectedError, success) ?? (recorded !== (expectRecord ? 1 : 0) ? `${reply.status}: ${recorded} records for a request the route ${expectRecord ? 'read' : 'could not read'}` : undefined)
        if (problem) failures.push(`${method} ${route.path} [${body.note}] → ${problem}`)
      }
    }
    console.log(`fuzz pass: ${sent} bodies over ${everyRoute().length} routes, ${modelRequests} read and recorded`)
    expect(firstOfEach(failures)).toEqual([])
    expect(totalRecords + proxy.requests.length + proxy.refusals.length).toBe(modelRequests + everyRoute().length)
    const after = await send(`${proxy.url}/v1/chat/completions`, 'POST', { text: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'still there?' }] }), contentType: 'application/json', note: 'after' })
    expect(after.status).toBe(200)
  }, 120_000)

  test('the control API: no 5xx, every answer JSON in its own shape, and the proxy serves afterwards', async () => {
    const proxy = await new FakeProxy({ controlApi: true }).start()
    open.push(proxy)
    const random = new Random(SEED + 1)
    const localError = (status: number): unknown => inputErrorBody('local', status, 'm')
    const routes: [string, string, unknown][] = [
      ['GET', 'health', undefined],
      ['GET', 'requests', undefined],
      ['GET', 'refusals', undefined],
      ['POST', 'reset', {}],
      ['PUT', 'script', [{ match: { lastUser: '/weather/i', model: 'gpt-5' }, reply: 'sunny' }, { reply: { text: 'x', toolCalls: [{ name: 'f', args: { a: 1 } }] } }]],
      ['POST', 'refuse', { code: 'rate_limited', times: 1, message: 'slow down' }],
      ['POST', 'provider-error', { name: 'overloaded', times: 1, retryAfterS: 1 }],
      ['POST', 'misbehave', { kind: 'truncated', times: 1 }],
      ['POST', 'chaos', { seed: 1, rate: 0.5 }],
      ['DELETE', 'chaos', undefined],
    ]
    const failures: string[] = []
    for (const [method, name, seed] of routes) {
      const url = `${proxy.url}/_agent-doubles/${name}`
      const bodies = seed === undefined ? [undefined, ...bodiesFor(random, {}, 0, 10)] : bodiesFor(random, seed, PER_CONTROL_ROUTE, 10)
      for (const body of bodies) {
        const reply = await send(url, random.chance(0.05) ? random.pick(['GET', 'POST', 'PUT', 'PATCH']) : method, body)
        const problem = judge(reply, localError)
        if (problem) failures.push(`${method} ${name} [${body?.note ?? 'no body'}] → ${problem}`)
      }
    }
    expect(firstOfEach(failures)).toEqual([])
    // Whatever was planned or loaded, the proxy still serves.
    expect((await send(`${proxy.url}/_agent-doubles/reset`, 'POST', undefined)).status).toBe(200)
    proxy.use(new ScriptedLLM().when(() => true, 'after'))
    const after = await send(`${proxy.url}/v1/chat/completions`, 'POST', { text: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'still there?' }] }), contentType: 'application/json', note: 'after' })
    expect(after.status).toBe(200)
  }, 60_000)

  test('FakeMcpServer over HTTP: no 5xx, every answer JSON-RPC (JSON or an event stream), and it serves afterwards', async () => {
    const mcp = await new FakeMcpServer({ tools: { ping: { responses: 'pong' }, add: { inputSchema: { type: 'object', properties: { a: { type: 'number' } } }, responses: 'sum' } } }).start()
    open.push(mcp)
    const random = new Random(SEED + 2)
    const accept = 'application/json, text/event-stream'
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } }
    const opened = await send(mcp.url, 'POST', { text: JSON.stringify(initialize), contentType: 'application/json', note: 'initialize' }, { accept })
    expect(opened.status).toBe(200)
    const session = opened.headers['mcp-session-id']
    expect(typeof session).toBe('string')
    const rpcError = (): unknown => ({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'm' } })
    const seeds: unknown[] = [
      initialize,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'add', arguments: { a: 1 } } },
      { jsonrpc: '2.0', id: 4, method: 'resources/list' },
      { jsonrpc: '2.0', id: 5, method: 'prompts/get', params: { name: 'p', arguments: {} } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      [{ jsonrpc: '2.0', id: 6, method: 'ping' }, { jsonrpc: '2.0', id: 7, method: 'tools/list' }],
    ]
    const failures: string[] = []
    for (let i = 0; i < MCP_BODIES; i++) {
      const seed = random.pick(seeds)
      const body = random.chance(0.85) ? mutatedBody(random, seed) : randomBody(random)
      const headers: Record<string, string> = { accept: random.chance(0.9) ? accept : random.pick(['application/json', 'text/event-stream', '*/*', '']) }
      if (seed !== initialize && random.chance(0.9)) headers['mcp-session-id'] = random.chance(0.95) ? String(session) : random.pick(['', 'nope', '\u00e9'])
      const method = random.chance(0.05) ? random.pick(['GET', 'DELETE', 'PUT']) : 'POST'
      // A DELETE would end the session the other bodies use, a GET open its event stream for
      // good: sent with another id.
      if (method !== 'POST') headers['mcp-session-id'] = 'not-this-one'
      let reply: Reply
      try {
        reply = await send(mcp.url, method, method === 'GET' ? undefined : body, headers)
      } catch (error) {
        failures.push(`${method} /mcp [${body.note}] ${JSON.stringify(headers)} → ${(error as Error).message}`)
        continue
      }
      // An event stream carries JSON-RPC messages as `data:` lines; each must be JSON.
      const problem =
        reply.status < 400 && reply.type.startsWith('text/event-stream')
          ? reply.text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => parseReply({ ...reply, text: line.slice(6) })).find((parsed) => 'problem' in parsed)?.problem
          : judge(reply, rpcError)
      if (problem) failures.push(`${method} /mcp [${body.note}] → ${problem}`)
    }
    expect(firstOfEach(failures)).toEqual([])
    const after = await send(mcp.url, 'POST', { text: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ping', arguments: {} } }), contentType: 'application/json', note: 'after' }, { accept, 'mcp-session-id': String(session) })
    expect(after.status).toBe(200)
    expect(after.text).toContain('pong')
  }, 60_000)
})
