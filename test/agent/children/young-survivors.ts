/**
 * Child process (--expose-gc): how much of the old generation MockAgents leave behind when only
 * young-generation GCs run. Each "test" opens the registry's test scope, makes an agent, calls it
 * once and closes the scope (which drops the agent), as the fixtures and setup entries do around
 * every test. Prints JSON.
 */
import { mockAgent } from '../../../src/index.js'
import { beginTestScope, endTestScope } from '../../../src/registry.js'
import { collectGarbage, oldSpaceUsed } from '../../child-figures.js'

const count = Number(process.argv[2] ?? 3000)

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
collectGarbage()
const before = oldSpaceUsed()
const answered = await tests(count)
collectGarbage({ type: 'minor' })
collectGarbage({ type: 'minor' })
const keptPerTest = (oldSpaceUsed() - before) / count
collectGarbage()
console.log(JSON.stringify({ answered, keptPerTest, afterFullGcPerTest: (oldSpaceUsed() - before) / count }))
