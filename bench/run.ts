/**
 * Runs every benchmark in bench/ and prints each SPEC §16 target as a ratio measured side by
 * side in this run. Each group runs several rounds with its cases in rotated order (so neither
 * JIT warm-up nor a noisy neighbour favours whichever goes first); a case's figure is the median
 * of its per-round time ratio to the group's baseline (the first case), with the range of those
 * ratios. Memory figures come from child processes with `--expose-gc`.
 *
 * `npm run bench` (about 4 minutes); `npm run bench -- --quick` (about a minute, noisier);
 * BENCH_ONLY=agent|llm|proxy|in-process|memory runs one family; BENCH_TIME_MS and BENCH_ROUNDS
 * set the effort.
 */
import { Bench, type Task } from 'tinybench'
import { groups as proxyGroups } from './proxy/wire.bench.js'
import { groups as inProcessGroups } from './proxy/in-process.bench.js'
import { groups as llmGroups } from './llm/ai-sdk.bench.js'
import { groups as agentGroups } from './agent/mock-agent.bench.js'
import { figures as memoryFigures } from './memory/figures.js'
import { figures as fixtureFigures } from './fixtures/figures.js'

export interface BenchCase {
  name: string
  fn: () => Promise<unknown>
  /** The most this case may take, as a multiple of the baseline's time (SPEC §16). */
  target?: number
}

export interface BenchGroup {
  title: string
  /** The first case is the baseline the others are compared with. */
  cases: BenchCase[]
  setup?: () => Promise<void>
  teardown?: () => Promise<void>
  /** Targets between two cases that are not the baseline: `name` ≤ `target` × `against`. */
  comparisons?: Array<{ name: string; against: string; target: number }>
}

/** A figure that is not a speed ratio (memory), measured once. */
export interface Figure {
  name: string
  value: number
  unit: string
  /** The most it may be (SPEC §16), in `unit`. */
  limit?: number
}

export interface FigureGroup {
  title: string
  measure: (quick: boolean) => Promise<Figure[]>
}

const quick = process.argv.includes('--quick')
const time = Number(process.env.BENCH_TIME_MS ?? (quick ? 250 : 600))
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 3 : 5))
const families: Record<string, Array<BenchGroup | FigureGroup>> = {
  proxy: proxyGroups,
  'in-process': inProcessGroups,
  llm: llmGroups,
  agent: agentGroups,
  memory: [...memoryFigures, ...fixtureFigures],
}
const only = process.env.BENCH_ONLY
if (only && !families[only]) throw new TypeError(`BENCH_ONLY must be one of ${Object.keys(families).join(', ')}, got ${JSON.stringify(only)}`)
const selected = only ? families[only] : Object.values(families).flat()

/** Mean time per operation (ms) of a task's samples. */
function meanMs(task: Task | undefined): number {
  const result = task?.result
  return result && 'latency' in result ? result.latency.mean : Number.NaN
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

const verdict = (ok: boolean): string => (ok ? 'meets' : 'MISSES')

async function runGroup(group: BenchGroup): Promise<void> {
  await group.setup?.()
  const samples = new Map<string, number[]>(group.cases.map((c) => [c.name, []]))
  try {
    for (let round = 0; round < rounds; round++) {
      const bench = new Bench({ time, warmupTime: quick ? 100 : 200 })
      const order = group.cases.map((_, i) => group.cases[(i + round) % group.cases.length])
      for (const c of order) bench.add(c.name, c.fn)
      await bench.run()
      for (const task of bench.tasks) samples.get(task.name)?.push(meanMs(task))
    }
  } finally {
    await group.teardown?.()
  }
  const baseline = samples.get(group.cases[0].name) ?? []
  console.log(`\n${group.title}`)
  for (const c of group.cases) {
    const runs = samples.get(c.name) ?? []
    // Ratios round by round (same conditions), summarised by their median and range.
    const ratios = runs.map((ms, i) => ms / baseline[i])
    const ratio = median(ratios)
    const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`
    const target = c.target === undefined ? '' : `  target ≤ ${c.target.toFixed(2)}× ${verdict(ratio <= c.target)}`
    const us = (median(runs) * 1000).toFixed(1)
    console.log(`  ${c.name.padEnd(58)} ${us.padStart(8)} µs  ×${ratio.toFixed(2)} (rounds ${range})${target}`)
  }
  for (const { name, against, target } of group.comparisons ?? []) {
    const mine = samples.get(name) ?? []
    const theirs = samples.get(against) ?? []
    const ratios = mine.map((ms, i) => ms / theirs[i])
    const ratio = median(ratios)
    const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`
    console.log(`  ${`${name} ÷ ${against}`.padEnd(58)} ${''.padStart(11)}  ×${ratio.toFixed(2)} (rounds ${range})  target ≤ ${target.toFixed(2)}× ${verdict(ratio <= target)}`)
  }
}

async function runFigures(group: FigureGroup): Promise<void> {
  const figures = await group.measure(quick)
  console.log(`\n${group.title}`)
  for (const f of figures) {
    const limit = f.limit === undefined ? '' : `  limit ${f.limit} ${f.unit} ${verdict(f.value <= f.limit)}`
    console.log(`  ${f.name.padEnd(58)} ${f.value.toFixed(2).padStart(10)} ${f.unit}${limit}`)
  }
}

console.log(`agent-doubles bench: Node ${process.version}, ${rounds} rounds × ${time} ms per case${quick ? ' (quick)' : ''}; ratios are time per operation ÷ the group's baseline`)
for (const group of selected) {
  if ('measure' in group) await runFigures(group)
  else await runGroup(group)
}
