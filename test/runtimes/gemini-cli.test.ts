// SPEC §17: Gemini CLI (0.61.0, `gemini -p`) runs unchanged against a lane, in a loopback-only
// network namespace, one lane per concurrent test. Its routing call is a side request.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe } from 'vitest'
import { expect, test } from '../../fixtures/vitest.js'
import { toolCall, type ModelRequest } from '../../src/index.js'
import { gemini, netnsReason, runGemini, scratch } from './support/runtimes.js'

const unavailable = gemini.cli.ok ? undefined : gemini.cli.reason
if (unavailable) console.warn(`[runtimes] Gemini CLI tests skipped: ${unavailable}`)
console.log(`[runtimes] Gemini CLI runs in ${netnsReason ? `this network namespace with telemetry off (no namespace: ${netnsReason})` : 'a loopback-only network namespace'}`)

const work = scratch('gemini-work')
writeFileSync(join(work.dir, 'notes.txt'), 'The launch code is 4217.\n')
afterAll(() => work.dispose())

function timed(name: string, ms: number): void {
  console.log(`[runtimes] Gemini CLI, ${name}: ${Math.round(ms)} ms`)
}

/** Whether the request carries a tool result back (the second turn of a round trip). */
const hasToolResult = (req: ModelRequest): boolean => req.messages.some((message) => message.role === 'tool')

// A run starts Gemini CLI: seconds each, more on a loaded machine (runs wait for one of two slots).
describe.skipIf(unavailable !== undefined).concurrent(`Gemini CLI 0.61.0${unavailable ? ` (skipped: ${unavailable})` : ''}`, { timeout: 300_000 }, () => {
  test('answers with the scripted text; the routing call is a side request that leaves the script untouched', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Hello from the script.'])
    fakeProxy.use(llm)
    const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Say hello', cwd: work.dir })
    timed('text answer', answer.ms)
    expect(answer.text).toBe('Hello from the script.')
    expect(fakeProxy).toHaveReceivedRequest({ side: true, model: expect.stringContaining('lite') }, { includeSide: true })
    expect(fakeProxy).toHaveReceivedRequests(1)
    expect(fakeProxy).toHaveBeenLastCalledWithTask(expect.stringContaining('Say hello'))
    expect(llm.callCount).toBe(1)
    expect(llm.turnsRemaining).toBe(0)
  })

  test('a built-in tool round trip: read_file reads the file and its content goes back to the model', async ({ fakeProxy, scriptedLLM }) => {
    fakeProxy.use(scriptedLLM([toolCall('read_file', { file_path: join(work.dir, 'notes.txt') }), 'The launch code is 4217.']))
    const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'What is the launch code in notes.txt?', cwd: work.dir })
    timed('read_file round trip', answer.ms)
    expect(answer.text).toBe('The launch code is 4217.')
    expect(fakeProxy).toHaveReceivedToolResult('read_file', expect.anything())
    // The call went out signed, and came back with its signature.
    expect(JSON.stringify(fakeProxy.requests.at(-1)?.json)).toContain('thoughtSignature')
  })

  test('a FakeMcpServer tool round trip', async ({ fakeProxy, scriptedLLM, fakeMcp }) => {
    const mcp = await fakeMcp({ tools: { lookup: { description: 'Looks up a city', responses: 'Paris: sunny, 21 °C' } } })
    fakeProxy.use(
      scriptedLLM((req) => {
        if (hasToolResult(req)) return 'It is sunny in Paris.'
        const tool = req.tools?.find((offered) => offered.name.includes('lookup'))
        return tool ? toolCall(tool.name, { city: 'Paris' }) : 'no lookup tool offered'
      }),
    )
    const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Weather in Paris?', cwd: work.dir, mcpUrl: mcp.url })
    timed('MCP round trip', answer.ms)
    expect(answer.text).toBe('It is sunny in Paris.')
    expect(mcp).toHaveCalledMcpTool('lookup')
  })

  test('a provider error Gemini CLI retries (429), then the scripted answer', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Recovered.'])
    fakeProxy.use(llm).providerError('rate_limit')
    const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Try again', cwd: work.dir })
    timed('retried 429', answer.ms)
    expect(answer.text).toBe('Recovered.')
    // After its routing call (a side request): the 429, then the answer.
    expect(fakeProxy.requests.filter((request) => !request.side).map((request) => request.status ?? 200)).toEqual([429, 200])
    expect(llm.callCount).toBe(1)
  })

  for (const who of ['first', 'second']) {
    test(`two concurrent tests, each with its own lane and answer (${who})`, async ({ fakeProxy, scriptedLLM, task }) => {
      fakeProxy.use(scriptedLLM([`The ${who} answer.`]))
      const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: `Who are you, ${who}?`, cwd: work.dir })
      timed(`concurrent (${who})`, answer.ms)
      expect(answer.text).toBe(`The ${who} answer.`)
      expect(fakeProxy.requests.filter((request) => !request.side).map((request) => request.lane)).toEqual([task.name])
    })
  }
})
