/**
 * One MockAgent call (resolution, envelope, recording, spy bookkeeping) against the hand-rolled
 * alternative it replaces: Vitest's `vi.fn` (`@vitest/spy`'s `fn`, what `vi.fn` is) wrapping the
 * same map lookup and envelope — the baseline — and Jest's (`jest-mock`); a plain async function
 * returning a prebuilt object shows the floor for any agent double.
 */
import { fn as viFn } from '@vitest/spy'
import { ModuleMocker } from 'jest-mock'
import { mockAgent, Envelope } from 'agent-doubles'
import type { BenchGroup } from '../run.js'

const responses: Record<string, string> = { weather: 'sunny', '*': 'no data' }
const agent = mockAgent(responses, { name: 'researcher' })
const prebuilt = Envelope.fromTask('weather today')
const plain = async (_task: string) => prebuilt
const lookup = async (task: string) => {
  const key = Object.keys(responses).find((k) => k !== '*' && task.includes(k)) ?? '*'
  return new Envelope({ task, payload: responses[key] })
}
const vitestSpy = viFn(lookup)
const jestSpy = new ModuleMocker(globalThis).fn(lookup)

export const groups: BenchGroup[] = [
  {
    title: 'one agent call (baseline: vi.fn + the same lookup and Envelope)',
    cases: [
      {
        name: 'vi.fn + map lookup + Envelope (baseline)',
        fn: async () => {
          await vitestSpy('weather today')
          if (vitestSpy.mock.calls.length > 10_000) vitestSpy.mockClear()
        },
      },
      {
        name: 'MockAgent map lookup + recording',
        fn: async () => {
          await agent('weather today')
          if (agent.callCount > 10_000) agent.reset()
        },
        target: 1.25,
      },
      {
        name: 'jest-mock fn + map lookup + Envelope',
        fn: async () => {
          await jestSpy('weather today')
          if (jestSpy.mock.calls.length > 10_000) jestSpy.mockClear()
        },
      },
      { name: 'plain async function, prebuilt object (floor)', fn: () => plain('weather today') },
    ],
  },
]
