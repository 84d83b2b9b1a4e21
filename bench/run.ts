/**
 * Runs every benchmark in bench/ and prints each SPEC §16 target as a ratio measured side by
 * side in this run. Each group runs several rounds; within a round its cases take turns in
 * slices of about 10 ms, in rotated order (so neither JIT warm-up nor a noisy neighbour favours
 * one of them); a case's figure is the median
 * of its per-round ratio to the group's baseline (the first case), with the range of those
 * ratios; between the warm-up and the first round a full GC clears what earlier groups left.
 * Cost is CPU time per operation (this process: client and double together), which other
 * processes on a shared machine move far less than wall time; the wall-time ratio is printed
 * beside it. Memory figures come from child processes with `--expose-gc`.
 *
 * `npm run bench` (about 4 minutes); `npm run bench -- --quick` (about two minutes, noisier);
 * BENCH_ONLY=agent|llm|proxy|wire|tokens|chaos|in-process|realtime|memory|fixtures runs one family (`wire`: the JSON
 * and stream round trips against the floor and aimock); BENCH_REPEAT=10 runs the selection ten
 * times over and ends with how many runs met each target (SPEC §23's series); BENCH_TIME_MS and BENCH_ROUNDS
 * set the effort, BENCH_WARMUP_MS how long each case runs alone first (V8 needs a few thousand
 * requests to optimise FakeProxy: 8000 measures the steady state).
 */
import { groups as proxyGroups } from './proxy/wire.bench.js'
import { groups as laneGroups } from './proxy/lanes.bench.js'
import { groups as tokenGroups } from './proxy/tokens.bench.js'
import { figures as tokenizerLoadFigures } from './proxy/tokenizer-load.js'
import { groups as chaosGroups } from './proxy/chaos.bench.js'
import { groups as inProcessGroups } from './proxy/in-process.bench.js'
import { groups as llmGroups } from './llm/ai-sdk.bench.js'
import { groups as agentGroups } from './agent/mock-agent.bench.js'
import { groups as realtimeGroups } from './realtime.js'
import { figures as memoryFigures } from './memory/figures.js'
import { figures as fixtureFigures } from './fixtures/figures.js'
import { figures as threeFixtureFigures } from './fixtures/three-fixtures.js'
import { calibrate, collectGarbage, median, runRound, type Sample } from './rounds.js'

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
  /** Ratios between two cases that are not the baseline: `name` ≤ `target` × `against` (printed only, without a target). */
  comparisons?: Array<{ name: string; against: string; target?: number }>
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
  /** Why the group cannot run here (what it needs is not installed), or `undefined`. */
  skip?: () => string | undefined
}

const quick = process.argv.includes('--quick')
// Quick runs take nine short rounds rather than three long ones, in the same time: a median of
// nine is not moved by one or two rounds that a major GC or a neighbour upset, where a median of
// three is moved by two. Their warm-up is longer than it was (100 ms): FakeProxy's request path is
// more code for V8 to optimise than the floor's, and 100 ms left a run's first rounds part cold.
const time = Number(process.env.BENCH_TIME_MS ?? (quick ? 100 : 1000))
const warmup = Number(process.env.BENCH_WARMUP_MS ?? (quick ? 300 : 200))
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 9 : 5))
const families: Record<string, Array<BenchGroup | FigureGroup>> = {
  proxy: [...proxyGroups, ...laneGroups, ...tokenGroups, ...tokenizerLoadFigures, ...chaosGroups],
  wire: proxyGroups,
  tokens: [...tokenGroups, ...tokenizerLoadFigures],
  chaos: chaosGroups,
  'in-process': inProcessGroups,
  llm: llmGroups,
  agent: agentGroups,
  realtime: realtimeGroups,
  memory: memoryFigures,
  fixtures: [...threeFixtureFigures, ...fixtureFigures],
}
const only = process.env.BENCH_ONLY
if (only && !families[only]) throw new TypeError(`BENCH_ONLY must be one of ${Object.keys(families).join(', ')}, got ${JSON.stringify(only)}`)
// A family listed inside another (`wire` in `proxy`, `tokens` in `proxy`) runs once in a whole run.
const selected = only ? families[only] : [...new Set(Object.values(families).flat())]
const repeat = Number(process.env.BENCH_REPEAT ?? 1)
if (!Number.isInteger(repeat) || repeat < 1) throw new TypeError(`BENCH_REPEAT must be a whole number of runs, at least 1, got ${JSON.stringify(process.env.BENCH_REPEAT)}`)

/** Every target this run judged, for the summary at the end. */
const judged: Array<{ what: string; ok: boolean; reading: string }> = []
/** The comparisons of this run that have no target, with their readings. */
const noted: Array<{ what: string; reading: string }> = []

/**
 * `meets` or `MISSES` for `value` against `limit`, noted for the summary. A value that prints
 * as its limit yet misses it (×0.902 against 0.90) is shown with one more digit.
 */
function verdict(what: string, value: number, limit: number, digits: number, unit: string): string {
  const ok = value <= limit
  const shown = value.toFixed(digits) === limit.toFixed(digits) && !ok ? value.toFixed(digits + 1) : value.toFixed(digits)
  const reading = unit === '×' ? `×${shown} (target ≤ ${limit.toFixed(digits)}×)` : `${shown} ${unit} (limit ${limit} ${unit})`
  judged.push({ what, ok, reading })
  return `${ok ? 'meets' : 'MISSES'}${shown === value.toFixed(digits) ? '' : ` (${unit === '×' ? '×' : ''}${shown})`}`
}

async function runGroup(group: BenchGroup): Promise<void> {
  await group.setup?.()
  const samples = new Map<string, Sample[]>(group.cases.map((c) => [c.name, []]))
  try {
    const fns = group.cases.map((c) => c.fn)
    const batches: number[] = []
    for (const fn of fns) batches.push(await calibrate(fn, warmup))
    collectGarbage()
    for (let round = 0; round < rounds; round++) {
      const results = await runRound(fns, batches, time)
      results.forEach((sample, i) => samples.get(group.cases[i].name)!.push(sample))
    }
  } finally {
    await group.teardown?.()
  }
  const baseline = samples.get(group.cases[0].name)!
  console.log(`\n${group.title}`)
  for (const c of group.cases) {
    const runs = samples.get(c.name)!
    // Ratios round by round (same conditions), summarised by their median and range.
    const ratios = runs.map((sample, i) => sample.cpu / baseline[i].cpu)
    const ratio = median(ratios)
    const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`
    const wall = median(runs.map((sample, i) => sample.wall / baseline[i].wall))
    const target = c.target === undefined ? '' : `  target ≤ ${c.target.toFixed(2)}× ${verdict(`${group.title}: ${c.name}`, ratio, c.target, 2, '×')}`
    const cpu = median(runs.map((sample) => sample.cpu)).toFixed(1)
    console.log(`  ${c.name.padEnd(56)} ${cpu.padStart(8)} µs  ×${ratio.toFixed(2)} (rounds ${range}; wall ×${wall.toFixed(2)})${target}`)
  }
  for (const { name, against, target } of group.comparisons ?? []) {
    const mine = samples.get(name)!
    const theirs = samples.get(against)!
    const ratios = mine.map((sample, i) => sample.cpu / theirs[i].cpu)
    const ratio = median(ratios)
    const range = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`
    const wall = median(mine.map((sample, i) => sample.wall / theirs[i].wall))
    const what = `${group.title}: ${name} ÷ ${against}`
    if (target === undefined) noted.push({ what, reading: `×${ratio.toFixed(2)}` })
    const judgement = target === undefined ? '' : `  target ≤ ${target.toFixed(2)}× ${verdict(what, ratio, target, 2, '×')}`
    console.log(`  ${`${name} ÷ ${against}`.padEnd(56)} ${''.padStart(11)}  ×${ratio.toFixed(2)} (rounds ${range}; wall ×${wall.toFixed(2)})${judgement}`)
  }
}

async function runFigures(group: FigureGroup): Promise<void> {
  const skipped = group.skip?.()
  if (skipped !== undefined) {
    console.log(`\n${group.title}\n  skipped: ${skipped}`)
    return
  }
  const figures = await group.measure(quick)
  console.log(`\n${group.title}`)
  for (const f of figures) {
    const limit = f.limit === undefined ? '' : `  limit ${f.limit} ${f.unit} ${verdict(`${group.title}: ${f.name}`, f.value, f.limit, 2, f.unit)}`
    console.log(`  ${f.name.padEnd(58)} ${f.value.toFixed(2).padStart(10)} ${f.unit}${limit}`)
  }
}

console.log(`agent-doubles bench: Node ${process.version}, ${rounds} rounds × ${time} ms per case${quick ? ' (quick)' : ''}${repeat > 1 ? `, ${repeat} runs` : ''}`)
console.log('µs = CPU time per operation (client and server in this process); × = its ratio to the group\'s baseline, median of the rounds')
/** Each target's readings, run by run, for the series summary. */
const series = new Map<string, Array<{ ok: boolean; reading: string }>>()
/** Each comparison without a target (the floor ÷ aimock, say), run by run, for the same summary. */
const context = new Map<string, string[]>()
for (let run = 1; run <= repeat; run++) {
  if (repeat > 1) console.log(`\n— run ${run} of ${repeat} —`)
  judged.length = 0
  noted.length = 0
  for (const group of selected) {
    if ('measure' in group) await runFigures(group)
    else await runGroup(group)
  }
  const missed = judged.filter((target) => !target.ok)
  console.log(`\nTargets: ${judged.length - missed.length} of ${judged.length} met in this run${missed.length ? '; missed:' : ''}`)
  for (const { what, reading } of missed) console.log(`  ${what} — ${reading}`)
  for (const { what, ok, reading } of judged) series.set(what, [...(series.get(what) ?? []), { ok, reading }])
  for (const { what, reading } of noted) context.set(what, [...(context.get(what) ?? []), reading])
}
if (repeat > 1) {
  console.log(`\nSeries of ${repeat} runs: how many met each target`)
  for (const [what, readings] of series) {
    const met = readings.filter((r) => r.ok).length
    console.log(`  ${met} of ${readings.length}  ${what}\n      ${readings.map((r) => r.reading.replace(/ \(.*\)$/, '')).join(', ')}`)
  }
  for (const [what, readings] of context) console.log(`  (no target)  ${what}\n      ${readings.join(', ')}`)
}
