/**
 * Runs every benchmark in bench/ and prints, for each group, ops/s and the ratio to the group's
 * baseline measured in the same run. `npm run bench`.
 */
import { Bench, type Task } from 'tinybench'
import { groups as proxyGroups } from './proxy/openai-chat.bench.js'
import { groups as llmGroups } from './llm/ai-sdk.bench.js'
import { groups as agentGroups } from './agent/mock-agent.bench.js'

export interface BenchCase {
  name: string
  fn: () => Promise<unknown>
}

export interface BenchGroup {
  title: string
  /** The first case is the baseline the others are compared with. */
  cases: BenchCase[]
  setup?: () => Promise<void>
  teardown?: () => Promise<void>
}

const time = Number(process.env.BENCH_TIME_MS ?? 1500)

/** Mean operations per second, from the mean latency (ms) of the task's samples. */
function opsPerSecond(task: Task | undefined): number {
  const result = task?.result
  return result && 'latency' in result && result.latency.mean > 0 ? 1000 / result.latency.mean : 0
}

// BENCH_ONLY=proxy (or agent, llm) runs one family.
const families = { agent: agentGroups, llm: llmGroups, proxy: proxyGroups }
const only = process.env.BENCH_ONLY as keyof typeof families | undefined
const selected = only ? families[only] : Object.values(families).flat()

for (const group of selected) {
  await group.setup?.()
  const bench = new Bench({ time, warmupTime: 300 })
  for (const c of group.cases) bench.add(c.name, c.fn)
  await bench.run()
  await group.teardown?.()

  const baseline = opsPerSecond(bench.tasks[0]) || 1
  console.log(`\n${group.title}`)
  for (const task of bench.tasks) {
    const hz = opsPerSecond(task)
    const ratio = hz / baseline
    console.log(`  ${task.name.padEnd(60)} ${hz.toFixed(0).padStart(9)} ops/s   ×${ratio.toFixed(2)} of baseline`)
  }
}
