// Record or replay per test, and failure context, under Jest (SPEC §14): child Jest runs of
// generated test files against the built package. The upstream they record from is a second
// FakeProxy living in this process, given to them by URL.
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { FakeProxy, lastUserText, scriptedLLM, toolCall } = require('agent-doubles')

const root = path.join(__dirname, '..', '..')
const dist = path.join(root, 'dist')
const dir = fs.mkdtempSync(path.join(__dirname, '.child-'))
const upstream = new FakeProxy({ llm: scriptedLLM((req) => `upstream says: ${lastUserText(req)}`) })
beforeAll(() => upstream.start())
afterAll(async () => {
  await upstream.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

fs.writeFileSync(
  path.join(dir, 'jest.config.cjs'),
  `module.exports = ${JSON.stringify({
    rootDir: dir,
    testEnvironment: 'node',
    // As in jest.config.cjs: on a loaded machine a child's first request (recording through the
    // upstream) can take longer than Jest's default 5 s.
    testTimeout: 15_000,
    transform: {},
    testMatch: ['<rootDir>/*.spec.cjs'],
    moduleNameMapper: {
      '^agent-doubles$': path.join(dist, 'index.cjs'),
      '^agent-doubles/(matchers|jest)$': path.join(dist, '$1/index.cjs'),
      '^agent-doubles/jest/setup$': path.join(dist, 'jest/setup.cjs'),
    },
    setupFilesAfterEnv: ['agent-doubles/jest/setup'],
  })}\n`,
)

// Records from UPSTREAM_URL when given; the date, the ticket number and a secret change between runs.
fs.writeFileSync(
  path.join(dir, 'agent.spec.cjs'),
  `
const OpenAI = require('openai')
const { useFakeProxy } = require('agent-doubles/jest')

useFakeProxy({
  interceptProviders: false,
  transcript: {
    upstream: process.env.UPSTREAM_URL,
    normalize: (text) => text.replace(/ticket T-\\d+/g, 'ticket T-<n>'),
    redact: (turn) => ({ ...turn, request: { ...turn.request, system: turn.request.system?.replace('secret-42', '<redacted>') } }),
  },
})

const ask = async (text) => {
  const client = new OpenAI({ maxRetries: 0 })
  const messages = [{ role: 'system', content: 'Today is ' + process.env.TODAY + '. Key secret-42.' }, { role: 'user', content: text }]
  return (await client.chat.completions.create({ model: 'gpt-5', messages })).choices[0].message.content
}

test('greets', async () => {
  expect(await ask('hello ' + (process.env.CHANGE ?? ''))).toBe('upstream says: hello ')
})

describe('support', () => {
  test('opens a ticket', async () => {
    expect(await ask('open ticket T-' + process.env.TICKET)).toMatch(/^upstream says: open ticket T-/)
  })
})
`,
)

fs.writeFileSync(
  path.join(dir, 'trip.spec.cjs'),
  `
const OpenAI = require('openai')
const { toolCall } = require('agent-doubles')
const { scriptedLLM, useFakeProxy } = require('agent-doubles/jest')

const proxy = useFakeProxy()

const run = async () => {
  const client = new OpenAI({ maxRetries: 0 })
  const messages = [{ role: 'system', content: 'You book trips on ' + new Date().toISOString() }, { role: 'user', content: 'Book Paris' }]
  const first = await client.chat.completions.create({ model: 'gpt-5', messages, tools: [{ type: 'function', function: { name: 'book', parameters: { type: 'object' } } }] })
  const call = first.choices[0].message.tool_calls[0]
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'booked' })
  return (await client.chat.completions.create({ model: 'gpt-5', messages })).choices[0].message.content
}

test('fails after two model calls', async () => {
  proxy.use(scriptedLLM([toolCall('book', { city: 'Paris' }), 'Booked Paris.']))
  expect(await run()).toBe('Booked Rome.')
})

test('passes quietly', async () => {
  proxy.use(scriptedLLM([toolCall('book', { city: 'Oslo' }), 'Booked Oslo.']))
  expect(await run()).toBe('Booked Oslo.')
})

test('throws a string', async () => {
  proxy.use(scriptedLLM(['Hi.']))
  await new OpenAI({ maxRetries: 0 }).chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'Say hi' }] })
  throw 'not an Error'
})

describe('in a describe block', () => {
  const inner = useFakeProxy()
  test('fails with nothing sent', () => {
    expect(inner.requests).toHaveLength(1)
  })
})
`,
)

// Asks one question the transcript does not hold and swallows the client's error.
fs.writeFileSync(
  path.join(dir, 'swallow.spec.cjs'),
  `
const OpenAI = require('openai')
const { useFakeProxy } = require('agent-doubles/jest')

useFakeProxy({ interceptProviders: false, transcript: { redact: (turn) => ({ ...turn, request: { ...turn.request, system: turn.request.system?.replace('secret-42', '<redacted>') } }) } })

test('swallows the error', async () => {
  const messages = [{ role: 'system', content: 'Today is ' + process.env.TODAY + '. Key secret-42.' }, { role: 'user', content: 'something else' }]
  await new OpenAI({ maxRetries: 0 }).chat.completions.create({ model: 'gpt-5', messages }).catch(() => undefined)
})
`,
)

/** Runs the child Jest on `spec` with `env`, resolving with its exit code and output (never rejecting on a failure). */
function jest(spec, env = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(JEST|OPENAI_|ANTHROPIC_|AGENT_DOUBLES_|NODE_OPTIONS$|FORCE_COLOR$|CI$)/.test(name)))
  const args = [path.join(root, 'node_modules/jest/bin/jest.js'), '--config', path.join(dir, 'jest.config.cjs'), '--ci', path.join(dir, spec)]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: dir, env: { ...clean, NO_COLOR: '1', TODAY: '2026-11-30', TICKET: '1001', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, output: output.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '') }))
  })
}

/** Fails with the child's output, so a broken run explains itself. */
function expectExit(run, code) {
  if (run.code !== code) throw new Error(`expected the child Jest to exit ${code}, got ${run.code}:\n${run.output}`)
}

const folder = path.join(dir, '__transcripts__', 'agent.spec.cjs')

test('record from a second FakeProxy by URL, replay on another day, miss with the nearest turn, list unused files, force a re-record', async () => {
  const recording = await jest('agent.spec.cjs', { UPSTREAM_URL: upstream.url })
  expectExit(recording, 0)
  expect(fs.readdirSync(folder).sort()).toEqual(['greets.jsonl', 'support-opens-a-ticket.jsonl'])
  expect(upstream.requests.map((request) => lastUserText(request.request))).toEqual(['hello ', 'open ticket T-1001'])
  const greets = fs.readFileSync(path.join(folder, 'greets.jsonl'), 'utf8')
  expect(greets).toContain('"text":"upstream says: hello "')
  expect(greets).toContain('Key <redacted>.')
  expect(greets).not.toContain('secret-42')

  // No upstream now, another date and another ticket number: the masks and normalize absorb them.
  const replay = await jest('agent.spec.cjs', { TODAY: '2027-01-15', TICKET: '2002' })
  expectExit(replay, 0)
  expect(replay.output).toMatch(/Tests:\s+2 passed, 2 total/)
  expect(upstream.requests).toHaveLength(2)

  const miss = await jest('agent.spec.cjs', { CHANGE: 'there' })
  expectExit(miss, 1)
  expect(miss.output).toContain(`replay miss at call 1: no recorded turn of ${path.join(folder, 'greets.jsonl')} matches the request; nearest recorded turn: 1 of 1 (line 1).`)
  expect(miss.output).toMatch(/- recorded\n\s*\+ received\n(.*\n)*?\s*- user: hello \n\s*\+ user: hello there/)
  expect(miss.output).toMatch(/Tests:\s+1 failed, 1 passed, 2 total/)
  expect(miss.output).toContain('Re-record with AGENT_DOUBLES_RECORD=1, or mask volatile text with useFakeProxy option transcript.normalize.')
  // Reported once (SPEC §22): the client's error carries the miss, so the helper does not add it
  // again when the test ends (the conversation's one-line note names it without the diff).
  expect(miss.output.split('matches the request; nearest recorded turn')).toHaveLength(2)
  expect(miss.output.split('Re-record with AGENT_DOUBLES_RECORD=1')).toHaveLength(2)

  // The miss fails the test even when the code under test swallows the error: then the helper
  // reports it, once.
  fs.mkdirSync(path.join(dir, '__transcripts__', 'swallow.spec.cjs'), { recursive: true })
  fs.writeFileSync(path.join(dir, '__transcripts__', 'swallow.spec.cjs', 'swallows-the-error.jsonl'), fs.readFileSync(path.join(folder, 'greets.jsonl')))
  const swallowed = await jest('swallow.spec.cjs')
  expectExit(swallowed, 1)
  expect(swallowed.output).toMatch(/● swallows the error\n\n\s*\[agent-doubles\] useFakeProxy: replay miss at call 1: no recorded turn of .*swallows-the-error\.jsonl matches the request/)
  expect(swallowed.output.split('matches the request; nearest recorded turn')).toHaveLength(2)

  // A transcript no test uses is listed when the file ends, and left in place.
  fs.writeFileSync(path.join(folder, 'old-test.jsonl'), greets)
  const withStale = await jest('agent.spec.cjs')
  expectExit(withStale, 0)
  expect(withStale.output).toMatch(new RegExp(`transcripts no test used:\\n\\s*${path.join(folder, 'old-test.jsonl').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
  expect(fs.existsSync(path.join(folder, 'old-test.jsonl'))).toBe(true)

  // AGENT_DOUBLES_RECORD=1 records over an existing transcript.
  const forced = await jest('agent.spec.cjs', { UPSTREAM_URL: upstream.url, AGENT_DOUBLES_RECORD: '1', CHANGE: 'again' })
  expectExit(forced, 1) // the spec expects 'hello ', the upstream now says 'hello again'
  expect(fs.readFileSync(path.join(folder, 'greets.jsonl'), 'utf8')).toContain('"text":"upstream says: hello again"')

  // Nothing to replay and no upstream: the test fails saying what to do.
  fs.rmSync(folder, { recursive: true })
  const nothing = await jest('agent.spec.cjs')
  expectExit(nothing, 1)
  expect(nothing.output).toContain(
    `[agent-doubles] useFakeProxy: no transcript at ${path.join(folder, 'greets.jsonl')} to replay and no upstream to record one from; give useFakeProxy option transcript.upstream`,
  )
}, 240_000)

test("a failing test's report shows the conversation its proxy saw, under the failure (on stderr for a thrown string); a passing one shows nothing", async () => {
  const run = await jest('trip.spec.cjs')
  expectExit(run, 1)
  const from = run.output.indexOf('● fails after two model calls')
  const failure = run.output.slice(from, run.output.indexOf('●', from + 1))
  const lines = failure.split('\n').map((line) => line.trim())
  const start = lines.indexOf('[agent-doubles] the conversation useFakeProxy saw in "fails after two model calls":')
  expect(start).toBeGreaterThan(0)
  expect(lines.slice(start + 1, start + 10)).toEqual([
    '#1 POST /v1/chat/completions · openai-chat · model "gpt-5"',
    'system: You book trips on <date>',
    'tools offered: book',
    'book · parameters {"type":"object"}',
    'user: Book Paris',
    'reply: book({"city":"Paris"})',
    '#2 POST /v1/chat/completions · openai-chat · model "gpt-5"',
    'tool book: booked',
    'reply: Booked Paris.',
  ])
  // Under the failure, after Jest's own message, not printed as console output.
  expect(failure.indexOf('Expected: "Booked Rome."')).toBeLessThan(failure.indexOf('[agent-doubles] the conversation'))
  expect(failure).not.toContain('console.error')
  expect(run.output.split('saw in "fails after two model calls"')).toHaveLength(2)
  expect(run.output).not.toContain('saw in "passes quietly"')
  expect(run.output).not.toContain('saw in "fails with nothing sent"')
  // A thrown string cannot carry it: the conversation goes to stderr instead.
  expect(run.output).toMatch(/console\.error\n\s*\[agent-doubles\] the conversation useFakeProxy saw in "throws a string":\n\s*#1 POST \/v1\/chat\/completions · openai-chat · model "gpt-5"\n\s*user: Say hi\n\s*reply: Hi\./)
  expect(run.output).toMatch(/Tests:\s+3 failed, 1 passed, 4 total/)
}, 120_000)
