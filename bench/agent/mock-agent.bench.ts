/**
 * One MockAgent call (resolution, envelope, recording, spy bookkeeping) against a plain async
 * function returning a prebuilt object — the floor for any agent double.
 */
import { mockAgent, Envelope } from '../../src/index.js'
import type { BenchGroup } from '../run.js'

const agent = mockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher' })
const prebuilt = Envelope.fromTask('weather today')
const plain = async (_task: string) => prebuilt

export const groups: BenchGroup[] = [
  {
    title: 'one agent call (baseline: plain async function)',
    cases: [
      { name: 'plain async function (floor)', fn: () => plain('weather today') },
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
