// SPEC §17: the Codex SDK runs the codex binary (0.163.0) unchanged against a lane, on its default
// model (tools in an `additional_tools` input item, the freeform `exec` tool), in a loopback-only
// network namespace, one lane per concurrent test.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe } from 'vitest'
import { expect, test } from '../../fixtures/vitest.js'
import { customToolCall } from '../../src/index.js'
import { codex, netnsReason, runCodex, scratch } from './support/runtimes.js'

const unavailable = codex.sdk.ok ? (codex.binary.ok ? undefined : codex.binary.reason) : codex.sdk.reason
if (unavailable) console.warn(`[runtimes] Codex SDK tests skipped: ${unavailable}`)
console.log(`[runtimes] Codex runs in ${netnsReason ? `this network namespace with telemetry off (no namespace: ${netnsReason})` : 'a loopback-only network namespace'}`)

const work = scratch('codex-work')
writeFileSync(join(work.dir, 'notes.txt'), 'The launch code is 4217.\n')
afterAll(() => work.dispose())

function timed(name: string, ms: number): void {
  console.log(`[runtimes] Codex, ${name}: ${Math.round(ms)} ms`)
}

// A run starts the codex binary: seconds each, more on a loaded machine (runs wait for one of two slots).
describe.skipIf(unavailable !== undefined).concurrent(`Codex SDK 0.163.0${unavailable ? ` (skipped: ${unavailable})` : ''}`, { timeout: 300_000 }, () => {
  test('answers with the scripted text', async ({ fakeProxy, scriptedLLM }) => {
    fakeProxy.use(scriptedLLM(['Hello from the script.']))
    const answer = await runCodex({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Say hello', cwd: work.dir })
    timed('text answer', answer.ms)
    expect(answer.text).toBe('Hello from the script.')
    expect(fakeProxy).toHaveReceivedRequests(1)
    expect(fakeProxy).toHaveBeenLastCalledWithTask('Say hello')
    expect(fakeProxy).toHaveSentValidRequests({ includeSide: true })
  })

  test('a built-in tool round trip: exec runs exec_command and its output goes back to the model', async ({ fakeProxy, scriptedLLM }) => {
    fakeProxy.use(scriptedLLM([customToolCall('exec', 'const r = await tools.exec_command({ cmd: "cat notes.txt" }); text(r.output)'), 'The launch code is 4217.']))
    const answer = await runCodex({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'What is the launch code in notes.txt?', cwd: work.dir })
    timed('exec round trip', answer.ms)
    expect(answer.text).toBe('The launch code is 4217.')
    expect(fakeProxy).toHaveRequestedTool('exec')
    expect(fakeProxy).toHaveReceivedToolResult('exec', expect.stringContaining('4217'))
    // Both turns went over the Responses WebSocket (no HTTP fallback), each continuing from the
    // response before it, and each record offers the tools Codex sent once, on its prewarm.
    const turns = fakeProxy.requests.filter((request) => !request.side)
    expect(turns).toHaveLength(2)
    for (const turn of turns) {
      expect(turn.session).toEqual(expect.any(String))
      expect((turn.json as { previous_response_id?: unknown }).previous_response_id).toEqual(expect.any(String))
      expect(turn.request.tools).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'exec', custom: true })]))
      expect(turn.request.system).toContain('You are Codex')
    }
    expect(fakeProxy).toHaveSentValidRequests({ includeSide: true })
  })

  test('a FakeMcpServer tool round trip: exec calls the MCP tool as a nested tool (tools.mcp__notes__lookup)', async ({ fakeProxy, scriptedLLM, fakeMcp }) => {
    // Codex's default model is not offered MCP tools as tools of its own: they are nested tools of
    // `exec` (deferred ones, listed in its `ALL_TOOLS`, not in its description), called from the
    // JavaScript `exec` runs.
    const mcp = await fakeMcp({ tools: { lookup: { description: 'Looks up a city', responses: 'Paris: sunny, 21 °C' } } })
    fakeProxy.use(scriptedLLM([customToolCall('exec', 'const r = await tools.mcp__notes__lookup({ city: "Paris" }); text(r.content[0].text)'), 'It is sunny in Paris.']))
    const answer = await runCodex({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Weather in Paris?', cwd: work.dir, mcpUrl: mcp.url })
    timed('MCP round trip', answer.ms)
    expect(answer.text).toBe('It is sunny in Paris.')
    expect(mcp).toHaveCalledMcpTool('lookup', { city: 'Paris' })
    expect(fakeProxy).toHaveReceivedToolResult('exec', expect.stringContaining('Paris: sunny, 21 °C'))
    expect(fakeProxy).toHaveSentValidRequests({ includeSide: true })
  })

  test('a provider error Codex retries (500), then the scripted answer', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Recovered.'])
    fakeProxy.use(llm).providerError('server_error')
    const answer = await runCodex({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Try again', cwd: work.dir })
    timed('retried 500', answer.ms)
    expect(answer.text).toBe('Recovered.')
    expect(fakeProxy.requests.filter((request) => !request.side).map((request) => request.status ?? 200)).toEqual([500, 200])
    expect(llm.callCount).toBe(1)
  })

  test('over the Responses WebSocket, its prewarm leaves the script untouched: one scripted turn, one answer', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Only turn.'])
    fakeProxy.use(llm)
    const answer = await runCodex({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'One turn only', cwd: work.dir })
    timed('one turn over the WebSocket', answer.ms)
    expect(answer.text).toBe('Only turn.')
    expect(fakeProxy).toHaveReceivedRequests(1)
    expect(llm.callCount).toBe(1)
    expect(llm.turnsRemaining).toBe(0)
  })

  for (const who of ['first', 'second']) {
    test(`two concurrent tests, each with its own lane and answer (${who})`, async ({ fakeProxy, scriptedLLM, task }) => {
      fakeProxy.use(scriptedLLM([`The ${who} answer.`]))
      const answer = await runCodex({ url: fakeProxy.url, env: fakeProxy.env, prompt: `Who are you, ${who}?`, cwd: work.dir })
      timed(`concurrent (${who})`, answer.ms)
      expect(answer.text).toBe(`The ${who} answer.`)
      expect(fakeProxy.requests.filter((request) => !request.side).map((request) => request.lane)).toEqual([task.name])
    })
  }
})
