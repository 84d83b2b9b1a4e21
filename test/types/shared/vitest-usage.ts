// Matcher and fixture typing shared by the Vitest 4 and Vitest 5 type tests: what must compile,
// and (// @ts-expect-error) what must not.
import { expect, test as base } from 'vitest'
import { test, fixtures, type AgentDoublesFixtures } from 'agent-doubles/vitest'
import { configure, ScriptedLLM as ScriptedLLMClass, toolCall, type Envelope, type FakeProxy, type MockAgent, type ScriptedLLM } from 'agent-doubles'
import { snapshotSerializers } from 'agent-doubles/matchers'
import type { FakeMcpServer } from 'agent-doubles'
import type { Dialect } from 'agent-doubles'

declare const env: Envelope
declare const agent: MockAgent
declare const llm: ScriptedLLM
declare const proxy: FakeProxy

export function matchersCompile(): void {
  expect(agent).toHaveBeenCalledWithTask('weather today')
  expect(agent).toHaveBeenCalledWithTask(expect.stringContaining('weather'))
  expect(agent).not.toHaveBeenLastCalledWithTask('market')
  expect(llm).toHaveBeenNthCalledWithTask(2, 'hello')
  expect(proxy).toHaveRefusedWith('rate_limited')
  expect(proxy).toHaveRefusedWith('agent_unknown', { times: 1, agent: 'intruder' })
  expect(proxy).toHaveReceivedRequest({ agent: 'researcher', model: expect.any(String) })
  expect(llm).toHaveReceivedRequests(2)
  expect(proxy).toHaveRegisteredDefinition('researcher', { model: 'gpt-5' })
  expect(llm).toHaveRequestedTool('get_weather', { city: 'Paris' })
  expect(llm).toHaveReceivedToolResult('get_weather')
  expect(llm).toHaveConsumedAllTurns()
  expect(env).toHaveText('sunny')
  expect(env).toBeErrorEnvelope({ type: 'RateLimit' })
  expect(env).toHaveUsage({ inputTokens: 50 })
  expect(proxy).toHaveSentValidRequests()
  expect(proxy).not.toHaveSentValidRequests()
  expect({ env }).toEqual({ env: expect.toHaveText('sunny') })
  expect(llm).toHaveCalledToolsInOrder(['search', { name: 'get_weather', args: { city: expect.any(String) } }])
  expect(proxy).toHaveCalledToolsInOrder(['a', 'b'], { mode: 'exact' })
  expect(agent).toHaveUsedAtMost({ requests: 3, costUsd: 0.01 })
  expect(proxy).not.toHaveUsedAtMost({ totalTokens: 100 })
  expect(proxy).toHaveHitPromptCache()
  expect(proxy).toHaveHitPromptCache({ from: 3, minReadRatio: 0.8 })
}

export function wrongMatcherUsageFails(): void {
  // @ts-expect-error a task is a string
  expect(agent).toHaveBeenCalledWithTask(42)
  // @ts-expect-error n comes first
  expect(agent).toHaveBeenNthCalledWithTask('hello')
  // @ts-expect-error not a refusal code
  expect(proxy).toHaveRefusedWith('rate-limited')
  // @ts-expect-error times is a number
  expect(proxy).toHaveRefusedWith('rate_limited', { times: '2' })
  // @ts-expect-error a count is a number
  expect(llm).toHaveReceivedRequests('2')
  // @ts-expect-error toHaveText needs the text
  expect(env).toHaveText()
  // @ts-expect-error toHaveSentValidRequests takes no argument
  expect(proxy).toHaveSentValidRequests(1)
  // @ts-expect-error no such matcher
  expect(env).toHaveTexts('sunny')
  // @ts-expect-error not a mode
  expect(llm).toHaveCalledToolsInOrder(['a'], { mode: 'sequence' })
  // @ts-expect-error a bound is a number
  expect(llm).toHaveUsedAtMost({ requests: '3' })
  // @ts-expect-error no such bound
  expect(llm).toHaveUsedAtMost({ tokens: 3 })
  // @ts-expect-error from is a number
  expect(proxy).toHaveHitPromptCache({ from: '2' })
}

export function fixturesCompile(): void {
  test('fixtures are typed', async ({ mockAgent, scriptedLLM, fakeProxy, fakeProxyOptions }) => {
    const researcher: MockAgent = mockAgent({ weather: 'sunny' }, { name: 'researcher' })
    const model: ScriptedLLM = scriptedLLM({ hello: 'hi there' })
    const url: string = fakeProxy.url
    const agents: readonly string[] | undefined = fakeProxyOptions.agents
    expect(researcher).toHaveBeenCalledWithTask('x')
    void model
    void url
    void agents
  })
  // @ts-expect-error no such fixture
  test('unknown fixture', async ({ notAFixture }) => void notAFixture)
  test.override({ fakeProxyOptions: { agents: ['researcher'], strict: true } })
  test.override({ fakeProxyOptions: { transcript: { mode: 'auto', dir: '__transcripts__', upstream: llm, normalize: (text) => text, redact: (turn) => turn } } })
  // @ts-expect-error not a transcript mode
  test.override({ fakeProxyOptions: { transcript: { mode: 'always' } } })
  // @ts-expect-error agents is an array
  test.override({ fakeProxyOptions: { agents: 'researcher' } })

  const mine = base.extend<AgentDoublesFixtures>(fixtures).extend<{ db: string }>({ db: async ({}, use) => use('db') })
  mine('merged', async ({ db, fakeProxy }) => {
    const both: [string, string] = [db, fakeProxy.url]
    void both
  })
}

export async function authoringCompiles(): Promise<void> {
  const undo: () => void = configure({ prices: { 'gpt-5': { inputPerMTok: 1.25, outputPerMTok: 10 } }, normalize: (text) => text })
  undo()
  // @ts-expect-error prices are numbers
  configure({ prices: { 'gpt-5': { inputPerMTok: '1.25', outputPerMTok: 10 } } })
  llm.when({ lastUser: /weather/i, toolOffered: 'get_weather', turn: 1 }, toolCall('get_weather', { city: 'Paris' }), { times: 1 }).when((req) => req.model === 'x', 'y')
  // @ts-expect-error no such match field
  llm.when({ user: 'x' }, 'y')
  const fromRules: ScriptedLLM = await ScriptedLLMClass.fromRules('rules.json')
  void fromRules
  for (const serializer of snapshotSerializers) expect.addSnapshotSerializer(serializer)
}

export function mcpCompiles(): void {
  test('fakeMcp is typed', async ({ fakeMcp }) => {
    const mcp: FakeMcpServer = await fakeMcp({ tools: { get_weather: { responses: 'sunny' } } })
    expect(mcp).toHaveCalledMcpTool('get_weather', { city: expect.any(String) })
    expect(mcp).toHaveCalledMcpToolTimes(expect.stringContaining('weather'), 1)
    // @ts-expect-error n is a number
    expect(mcp).toHaveCalledMcpToolTimes('get_weather', '1')
    // @ts-expect-error a tool name is a string
    expect(mcp).toHaveCalledMcpTool(42)
  })
}

/** Whether two types are the same (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false

/**
 * The published `Dialect` is the union the providers' declarations make (src/wire/dialects.ts):
 * the same names it had when they were listed by hand.
 */
export const dialectUnchanged: Same<
  Dialect,
  | 'openai-chat'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'anthropic-count-tokens'
  | 'openai-embeddings'
  | 'openai-models'
  | 'gemini-generate'
  | 'gemini-count-tokens'
  | 'gemini-embed'
  | 'gemini-models'
  | 'ollama-chat'
  | 'ollama-generate'
  | 'ollama-embed'
  | 'ollama-tags'
  | 'bedrock-converse'
  | 'bedrock-invoke'
  | 'bedrock-embed'
  | 'bedrock-count-tokens'
  | 'openai-realtime'
  | 'gemini-live'
> = true
