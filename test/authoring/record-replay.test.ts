// Record or replay per test through fakeProxyOptions.transcript, end to end: a child Vitest run
// records each test's transcript from an upstream that is a second FakeProxy (given by its URL),
// a second run replays them with the upstream gone — on another day, which only
// `normalize` and the built-in masks make pass — and a third run with a changed prompt fails
// with the nearest recorded turn and a diff.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { describeRun, fromRoot, node20, node24, repoRoot, runChild, vitest4Bin, vitest5Bin } from '../e2e/helpers.js'

const dir = mkdtempSync(join(repoRoot, 'test/authoring/.stability-replay-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const spec = `
import OpenAI from 'openai'
import { expect } from 'vitest'
import { test as base } from ${JSON.stringify(fromRoot('fixtures/vitest.ts'))}
import { FakeProxy, scriptedLLM } from ${JSON.stringify(fromRoot('src/index.ts'))}

// The upstream: a second FakeProxy, given by URL; the fixture asks it over HTTP.
const upstreamProxy = process.env.RECORD ? await new FakeProxy({ llm: scriptedLLM((req) => 'upstream says: ' + req.messages.at(-1).content[0].text) }).start() : undefined
const upstream = upstreamProxy?.url

const test = base.override
  ? base.override({ fakeProxyOptions: { interceptProviders: false, transcript: { upstream, normalize: (text) => text.replace(/ticket T-\\d+/g, 'ticket T-<n>'), redact: (turn) => ({ ...turn, request: { ...turn.request, system: turn.request.system?.replace('secret-42', '<redacted>') } }) } } })
  : base

const ask = async (url, text) => {
  const client = new OpenAI({ apiKey: 'k', baseURL: url + '/v1', maxRetries: 0 })
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'system', content: 'Today is ' + process.env.TODAY + '. Key secret-42.' }, { role: 'user', content: text }] })
  return completion.choices[0].message.content
}

test('greets', async ({ fakeProxy }) => {
  expect(await ask(fakeProxy.url, 'hello ' + (process.env.CHANGE ?? ''))).toBe('upstream says: hello ')
})

describe('support', () => {
  test('opens a ticket', async ({ fakeProxy }) => {
    expect(await ask(fakeProxy.url, 'open ticket T-' + process.env.TICKET)).toMatch(/^upstream says: open ticket T-/)
  })
})
afterAll(() => upstreamProxy?.close())
`

/** Writes the spec into `folder` and returns a function that runs it with a runner. */
function project(folder: string, node: string, bin: string) {
  writeFileSync(join(folder, 'agent.spec.ts'), spec.replace("import { expect } from 'vitest'", "import { afterAll, describe, expect } from 'vitest'"))
  writeFileSync(join(folder, 'vitest.config.mjs'), `export default { test: { include: ['*.spec.ts'], setupFiles: [${JSON.stringify(fromRoot('fixtures/vitest-setup.ts'))}] } }\n`)
  return (env: Record<string, string>) =>
    runChild(node, [bin, 'run', '--root', folder, '--config', join(folder, 'vitest.config.mjs')], { env: { TODAY: '2026-11-30', TICKET: '1001', ...env }, timeoutMs: 60_000 })
}

test('Vitest 5: record, then replay on another day', async () => {
  const folder = mkdtempSync(join(dir, 'vitest5-'))
  const run = project(folder, await node24(), vitest5Bin)
  const recording = await run({ RECORD: '1' })
  expect(recording.code, describeRun(recording)).toBe(0)
  const replay = await run({ TODAY: '2027-01-15', TICKET: '2002' })
  expect(replay.code, describeRun(replay)).toBe(0)
  expect(replay.output).toMatch(/Tests\s+2 passed/)
}, 120_000)

test('record, then replay on another day, then a miss with the nearest turn', async () => {
  const run = project(dir, node20, vitest4Bin)

  const recording = await run({ RECORD: '1' })
  expect(recording.code, describeRun(recording)).toBe(0)
  const folder = join(dir, '__transcripts__', 'agent.spec.ts')
  expect(readdirSync(folder).sort()).toEqual(['greets.jsonl', 'support-opens-a-ticket.jsonl'])
  const greets = readFileSync(join(folder, 'greets.jsonl'), 'utf8')
  expect(greets).toContain('"text":"upstream says: hello "')
  expect(greets).toContain('Key <redacted>.')
  expect(greets).not.toContain('secret-42')

  // No upstream now, another date and another ticket number: the masks and normalize absorb them.
  const replay = await run({ TODAY: '2027-01-15', TICKET: '2002' })
  expect(replay.code, describeRun(replay)).toBe(0)
  expect(replay.output).toMatch(/Tests\s+2 passed/)

  const miss = await run({ CHANGE: 'there' })
  expect(miss.code).toBe(1)
  expect(miss.output).toContain('replay miss at call 1: no recorded turn of')
  expect(miss.output).toContain('nearest recorded turn: 1 of 1 (line 1)')
  expect(miss.output).toContain('- user: hello ')
  expect(miss.output).toContain('+ user: hello there')

  // A transcript no test uses is listed when the file ends.
  writeFileSync(join(folder, 'old-test.jsonl'), greets)
  const withStale = await run({})
  expect(withStale.code, describeRun(withStale)).toBe(0)
  expect(withStale.output).toContain(`transcripts no test used:\n  ${join(folder, 'old-test.jsonl')}`)
  expect(existsSync(join(folder, 'old-test.jsonl'))).toBe(true)

  // AGENT_DOUBLES_RECORD=1 records over an existing transcript.
  const forced = await run({ RECORD: '1', AGENT_DOUBLES_RECORD: '1', CHANGE: 'again' })
  expect(forced.code, describeRun(forced)).toBe(1) // the spec expects 'hello ', the upstream now says 'hello again'
  expect(readFileSync(join(folder, 'greets.jsonl'), 'utf8')).toContain('"text":"upstream says: hello again"')
}, 180_000)
