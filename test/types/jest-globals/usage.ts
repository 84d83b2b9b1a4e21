import { expect } from '@jest/globals'
import { useFakeProxy, mockAgent, scriptedLLM } from 'agent-doubles/jest'
import { useFakeMcp } from 'agent-doubles/jest'
import type { Envelope, FakeProxy, MockAgent, ScriptedLLM } from 'agent-doubles'
import type { FakeMcpServer } from 'agent-doubles'

declare const env: Envelope
declare const pending: Promise<Envelope>

const proxy: FakeProxy = useFakeProxy({ agents: ['researcher'] })
const agent: MockAgent = mockAgent({ weather: 'sunny' }, { name: 'researcher' })
const llm: ScriptedLLM = scriptedLLM()

export async function matchersCompile(): Promise<void> {
  expect(agent).toHaveBeenCalledWithTask('weather today')
  expect(agent).toHaveBeenCalledWithTask(expect.stringContaining('weather'))
  expect(agent).not.toHaveBeenNthCalledWithTask(1, 'market')
  expect(proxy).toHaveRefusedWith('agent_unknown', { times: 1, agent: 'intruder' })
  expect(proxy).toHaveRefusedWith(expect.stringMatching(/^agent_/))
  expect(proxy).toHaveReceivedRequest({ agent: 'researcher' })
  expect(llm).toHaveReceivedRequests(0)
  expect(llm).toHaveConsumedAllTurns()
  expect(proxy).toHaveUsedAtMost({ costUsd: 0.5 })
  expect(proxy).toHaveHitPromptCache({ minReadRatio: 0.9 })
  expect(llm).toHaveCalledToolsInOrder(['search', { name: 'book', args: { city: 'Paris' } }], { mode: 'subsequence' })
  expect(env).toHaveText('sunny')
  expect(env).toHaveUsage({ inputTokens: expect.any(Number) })
  const resolved: Promise<void> = expect(pending).resolves.toHaveText('sunny')
  await resolved
  expect({ env }).toEqual({ env: expect.toHaveText('sunny') })
  expect({ env }).toEqual({ env: expect.not.toHaveText('rainy') })
  // Jest's own spy matchers are typed from the MockAgent's call signature.
  expect(agent).toHaveBeenCalledWith('weather today')
}

export function wrongUsageFails(): void {
  // @ts-expect-error a task is a string
  expect(agent).toHaveBeenCalledWithTask(42)
  // @ts-expect-error not a refusal code
  expect(proxy).toHaveRefusedWith('rate-limited')
  // @ts-expect-error a count is a number
  expect(llm).toHaveReceivedRequests('2')
  // @ts-expect-error no such matcher
  expect(env).toHaveTexts('sunny')
  // @ts-expect-error strict is a boolean
  useFakeProxy({ strict: 'yes' })
}

export function mcpCompiles(): void {
  const mcp: FakeMcpServer = useFakeMcp({ tools: { get_weather: { responses: 'sunny' } } })
  expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
  expect(mcp).not.toHaveCalledMcpToolTimes('get_weather', 2)
  // @ts-expect-error n is a number
  expect(mcp).toHaveCalledMcpToolTimes('get_weather', '2')
}
