/**
 * Child process (--expose-gc): how much of the old generation MockAgents leave behind when only
 * young-generation GCs run. Each "test" opens the registry's test scope, makes an agent, calls it
 * once and closes the scope (which drops the agent), as the fixtures and setup entries do around
 * every test. Prints JSON.
 */
import { getHeapSpaceStatistics } from 'node:v8'
import { mockAgent } from '../../../src/index.js'
import { beginTestScope, endTestScope } from '../../../src/registry.js'

const count = Number(process.argv[2] ?? 3000)
const collect = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc!
const oldSpace = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size

async function tests(n: number): Promise<number> {
  let answered = 0
  for (let i = 0; i < n; i++) {
    beginTestScope()
    const agent = mockAgent({ weather: 'sunny' }, { name: 'researcher' })
    if ((await agent('weather today')).text() === 'sunny') answered++
    await endTestScope()
  }
  return answered
}

// Warm up (JIT, lazily made structures), then measure from a clean slate.
await tests(1000)
collect()
const before = oldSpace()
const answered = await tests(count)
collect({ type: 'minor' })
collect({ type: 'minor' })
const keptPerTest = (oldSpace() - before) / count
collect()
console.log(JSON.stringify({ answered, keptPerTest, afterFullGcPerTest: (oldSpace() - before) / count }))
