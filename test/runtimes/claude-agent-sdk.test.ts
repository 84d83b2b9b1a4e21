// SPEC §17: the Claude Agent SDK runs Claude Code (its bundled claude binary, 2.1.328) unchanged
// against a lane, in a loopback-only network namespace, one lane per concurrent test.
import { join } from 'node:path'
import { describe } from 'vitest'
import { expect, test } from '../../fixtures/vitest.js'
import { toolCall } from '../../src/index.js'
import { claude, runClaude } from './support/runtimes.js'
import { runtimeSuite } from './support/suite.js'

const suite = runtimeSuite('claude', 'Claude Agent SDK 0.3.328', claude.sdk.ok ? (claude.binary.ok ? undefined : claude.binary.reason) : claude.sdk.reason)
const work = suite.work

// A run starts Claude Code: seconds each, more on a loaded machine (runs wait for one of two slots).
describe.skipIf(suite.unavailable !== undefined).concurrent(suite.title, { timeout: 300_000 }, () => {
  test('answers with the scripted text; the system message it sends is system text, not the prompt', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Hello from the script.'])
    fakeProxy.use(llm)
    const answer = await runClaude({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Say hello', cwd: work })
    suite.timed('text answer', answer.ms)
    expect(answer.text).toBe('Hello from the script.')
    expect(fakeProxy).toHaveSentValidRequests({ includeSide: true })
    expect(fakeProxy).toHaveReceivedRequests(1)
    expect(fakeProxy).toHaveBeenLastCalledWithTask('Say hello')
    expect(llm.requests[0]?.system).toContain('Primary working directory')
    expect(fakeProxy.requests[0]?.headers['anthropic-beta']).toContain('per-turn-control-2026-07-01')
  })

  test('a built-in tool round trip: Read reads the file and its content goes back to the model', async ({ fakeProxy, scriptedLLM }) => {
    fakeProxy.use(scriptedLLM([toolCall('Read', { file_path: join(work, 'notes.txt') }), 'The launch code is 4217.']))
    const answer = await runClaude({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'What is the launch code in notes.txt?', cwd: work })
    suite.timed('Read round trip', answer.ms)
    expect(answer.text).toBe('The launch code is 4217.')
    expect(fakeProxy).toHaveRequestedTool('Read')
    expect(fakeProxy).toHaveReceivedToolResult('Read', expect.stringContaining('4217'))
    expect(fakeProxy).toHaveSentValidRequests({ includeSide: true })
  })

  test('a FakeMcpServer tool round trip', async ({ fakeProxy, scriptedLLM, fakeMcp }) => {
    const mcp = await fakeMcp({ tools: { lookup: { description: 'Looks up a city', responses: 'Paris: sunny, 21 °C' } } })
    fakeProxy.use(scriptedLLM([toolCall('mcp__notes__lookup', { city: 'Paris' }), 'It is sunny in Paris.']))
    const answer = await runClaude({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Weather in Paris?', cwd: work, mcpUrl: mcp.url })
    suite.timed('MCP round trip', answer.ms)
    expect(answer.text).toBe('It is sunny in Paris.')
    expect(mcp).toHaveCalledMcpTool('lookup')
    expect(fakeProxy).toHaveReceivedToolResult('mcp__notes__lookup', expect.stringContaining('sunny'))
    expect(fakeProxy).toHaveSentValidRequests({ includeSide: true })
  })

  test('a provider error Claude Code retries (529 overloaded), then the scripted answer', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Recovered.'])
    fakeProxy.use(llm).providerError('overloaded')
    const answer = await runClaude({ url: fakeProxy.url, env: fakeProxy.env, prompt: 'Try again', cwd: work })
    suite.timed('retried 529', answer.ms)
    expect(answer.text).toBe('Recovered.')
    expect(fakeProxy.requests.map((request) => request.status ?? 200)).toEqual([529, 200])
    expect(llm.callCount).toBe(1)
  })

  test('a side request (the model list of gateway model discovery) leaves the script untouched', async ({ fakeProxy, scriptedLLM }) => {
    const llm = scriptedLLM(['Only turn.'])
    fakeProxy.use(llm)
    const env = { ...fakeProxy.env, CLAUDE_CODE_ENABLE_GATEWAY_MODEL_DISCOVERY: '1' }
    const answer = await runClaude({ url: fakeProxy.url, env, prompt: 'One turn only', cwd: work })
    suite.timed('with a side request', answer.ms)
    expect(answer.text).toBe('Only turn.')
    expect(fakeProxy).toHaveReceivedRequest({ method: 'GET', path: '/v1/models', side: true }, { includeSide: true })
    expect(fakeProxy).toHaveReceivedRequests(1)
    expect(llm.callCount).toBe(1)
    expect(llm.turnsRemaining).toBe(0)
  })

  suite.concurrentPair(runClaude)
})
