// SPEC §17: Gemini CLI (0.61.0, `gemini -p`) runs unchanged against a lane, in a loopback-only
// network namespace, one lane per concurrent test. Its routing call is a side request.
import { join } from 'node:path'
import { describe } from 'vitest'
import { expect, test } from '../../fixtures/vitest.js'
import { toolCall, type ModelRequest } from '../../src/index.js'
import { gemini, runGemini } from './support/runtimes.js'
import { runtimeSuite } from './support/suite.js'

const suite = runtimeSuite('gemini', 'Gemini CLI 0.61.0', gemini.cli.ok ? undefined : gemini.cli.reason)
const work = suite.work

/** Whether the request carries a tool result back (the second turn of a round trip). */
const hasToolResult = (req: ModelRequest): boolean => req.messages.some((message) => message.role === 'tool')

// A run starts Gemini CLI: seconds each, more on a loaded machine (runs wait for one of two slots).
describe.skipIf(suite.unavailable !== undefined).concurrent(suite.title, { timeout: 300_000 }, () => {
  test('answers with the scripted text; the routing call is a side request that leaves the script untouched', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Hello from the script.'])
    fakeProxy.use(llm)
    const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Say hello', cwd: work })
    suite.timed('text answer', answer.ms)
    expect(answer.text).toBe('Hello from the script.')
    expect(fakeProxy).toHaveReceivedRequest({ side: true, model: expect.stringContaining('lite') }, { includeSide: true })
    expect(fakeProxy).toHaveReceivedRequests(1)
    expect(fakeProxy).toHaveBeenLastCalledWithTask(expect.stringContaining('Say hello'))
    expect(llm.callCount).toBe(1)
    expect(llm.turnsRemaining).toBe(0)
  })

  test('a built-in tool round trip: read_file reads the file and its content goes back to the model', async ({ fakeProxy, scriptedLLM }) => {
    fakeProxy.use(scriptedLLM([toolCall('read_file', { file_path: join(work, 'notes.txt') }), 'The launch code is 4217.']))
    const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'What is the launch code in notes.txt?', cwd: work })
    suite.timed('read_file round trip', answer.ms)
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
    const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Weather in Paris?', cwd: work, mcpUrl: mcp.url })
    suite.timed('MCP round trip', answer.ms)
    expect(answer.text).toBe('It is sunny in Paris.')
    expect(mcp).toHaveCalledMcpTool('lookup')
  })

  // Gemini CLI waits 5-6 s before retrying any 429 or 5xx (its first backoff, not configurable);
  // the 429's RetryInfo says a millisecond, else it would wait the per-minute quota's 60 s.
  test('a provider error Gemini CLI retries (429), then the scripted answer', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Recovered.'])
    fakeProxy.use(llm).providerError('rate_limit')
    const answer = await runGemini({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Try again', cwd: work })
    suite.timed('retried 429', answer.ms)
    expect(answer.text).toBe('Recovered.')
    // After its routing call (a side request): the 429, then the answer.
    expect(fakeProxy.requests.filter((request) => !request.side).map((request) => request.status ?? 200)).toEqual([429, 200])
    expect(llm.callCount).toBe(1)
  })

  suite.concurrentPair(runGemini)
})
