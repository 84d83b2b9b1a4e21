/**
 * Runs every benchmark in bench/ and prints, for each group, the median ops/s of each case and
 * its ratio to the group's baseline (the first case) measured in the same run. Each group runs
 * several rounds with the cases in rotated order, so neither JIT warm-up nor a noisy neighbour
 * favours the case that happens to go first. `npm run bench`; BENCH_ONLY=agent|llm|proxy|lanes runs one
 * family, BENCH_TIME_MS and BENCH_ROUNDS set the effort.
 */
import { Bench, type Task } from 'tinybench'
import { groups as proxyGroups } from './proxy/openai-chat.bench.js'
import { groups as llmGroups } from './llm/ai-sdk.bench.js'
import { groups as agentGroups } from './agent/mock-agent.bench.js'
import { fixtureOverhead, groups as laneGroups } from './proxy/lanes.bench.js'

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

const time = Number(process.env.BENCH_TIME_MS ?? 1000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const families = { agent: agentGroups, llm: llmGroups, proxy: proxyGroups, lanes: laneGroups }
const only = process.env.BENCH_ONLY as keyof typeof families | undefined
const selected = only ? families[only] : Object.values(families).flat()

/** Mean operations per second, from the mean latency (ms) of the task's samples. */
function opsPerSecond(task: Task | undefined): number {
  const result = task?.result
  return result && 'latency' in result && result.latency.mean > 0 ? 1000 / result.latency.mean : 0
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

for (const group of selected) {
  await group.setup?.()
  const samples = new Map<string, number[]>(group.cases.map((c) => [c.name, []]))
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime: 200 })
    const order = group.cases.map((_, i) => group.cases[(i + round) % group.cases.length])
    for (const c of order) bench.add(c.name, c.fn)
    await bench.run()
    for (const task of bench.tasks) samples.get(task.name)?.push(opsPerSecond(task))
  }
  await group.teardown?.()

  const baselineRuns = samples.get(group.cases[0].name) ?? []
  console.log(`\n${group.title}`)
  for (const c of group.cases) {
    const runs = samples.get(c.name) ?? []
    // Ratios round by round (same conditions), summarised by their median and range.
    const ratios = runs.map((hz, i) => hz / (baselineRuns[i] || 1))
    const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`
    console.log(
      `  ${c.name.padEnd(60)} ${median(runs).toFixed(0).padStart(9)} ops/s   ×${median(ratios).toFixed(2)} (rounds ${range})`,
    )
  }
}

if (!only || only === 'lanes') {
  // Child Vitest runs: minutes, not seconds, so three rounds whatever BENCH_ROUNDS says.
  const overhead = fixtureOverhead(3)
  console.log('\nfakeProxy fixture vs a hand-made beforeAll FakeProxy (2,000 empty tests, child Vitest runs)')
  console.log(`  hand-made beforeAll server      ${overhead.handMade.toFixed(1).padStart(8)} µs/test   ×1.00`)
  console.log(`  fakeProxy fixture (a lane each) ${overhead.fixture.toFixed(1).padStart(8)} µs/test   ×${(overhead.fixture / overhead.handMade).toFixed(2)}   (+${overhead.perTestUs.toFixed(1)} µs/test)`)
}
