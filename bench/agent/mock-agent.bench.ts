/**
 * One MockAgent call (resolution, envelope, recording, spy bookkeeping) against a plain async
 * function returning a prebuilt object — the floor for any agent double — and against the
 * hand-rolled alternatives: Vitest's mock function (@vitest/spy's `fn`, what `vi.fn` is; SPEC
 * §16 compares with it) and Jest's (jest-mock, what `jest.fn` is) wrapping the same map lookup
 * and envelope.
 */
import { fn as viFn } from '@vitest/spy'
import { ModuleMocker } from 'jest-mock'
import { mockAgent, Envelope } from '../../src/index.js'
import type { BenchGroup } from '../run.js'

const responses: Record<string, string> = { weather: 'sunny', '*': 'no data' }
const agent = mockAgent(responses, { name: 'researcher' })
const prebuilt = Envelope.fromTask('weather today')
const plain = async (_task: string) => prebuilt
const lookup = async (task: string) => {
  const key = Object.keys(responses).find((k) => k !== '*' && task.includes(k)) ?? '*'
  return new Envelope({ task, payload: responses[key] })
}
const handRolled = new ModuleMocker(globalThis).fn(lookup)
const viHandRolled = viFn(lookup)

export const groups: BenchGroup[] = [
  {
    title: 'one agent call (baseline: plain async function)',
    cases: [
      { name: 'plain async function (floor)', fn: () => plain('weather today') },
      {
        name: 'vi.fn + map lookup + Envelope',
        fn: async () => {
          await viHandRolled('weather today')
          if (viHandRolled.mock.calls.length > 10_000) viHandRolled.mockClear()
        },
      },
      {
        name: 'jest-mock fn + map lookup + Envelope',
        fn: async () => {
          await handRolled('weather today')
          if (handRolled.mock.calls.length > 10_000) handRolled.mockClear()
        },
      },
      {
        name: 'MockAgent map lookup + recording',
        fn: async () => {
          await agent('weather today')
          if (agent.callCount > 10_000) agent.reset()
        },
      },
    ],
  },
]
