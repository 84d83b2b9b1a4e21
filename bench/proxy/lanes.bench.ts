/**
 * What a lane costs (SPEC §9, §16). `proxy.lane()` + `close()` is the whole per-test price of
 * isolation on the server side, against `proxy.reset()` — what the first release did between
 * tests. The fixture's total overhead per test (lane, environment, async context, scope) is
 * measured by `fixtureOverhead()`: two generated Vitest files of the same empty tests, one on
 * the `fakeProxy` fixture, one on a hand-made `beforeAll` server, each run in a child Vitest.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FakeProxy } from '../../src/index.js'
import type { BenchGroup } from '../run.js'

let proxy: FakeProxy

export const groups: BenchGroup[] = [
  {
    title: 'per-test isolation on the server (baseline: proxy.reset(), the first release)',
    setup: async () => {
      proxy = await new FakeProxy().start()
    },
    teardown: () => proxy.close(),
    cases: [
      { name: 'proxy.reset()', fn: async () => proxy.reset() },
      {
        name: 'proxy.lane() + lane.close()',
        fn: async () => {
          const lane = proxy.lane('a test')
          void lane.url
          await lane.close()
        },
      },
    ],
  },
]

const TESTS = 2_000

/** Median wall time per test (µs) of each generated file over `rounds` child runs, in rotated order. */
export function fixtureOverhead(rounds = 3): { fixture: number; handMade: number; perTestUs: number } {
  const dir = join(process.cwd(), 'bench', '.generated')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const body = (test: string) => `  ${test}\n`
  const fixtureFile = join(dir, 'fixture.test.ts')
  const handMadeFile = join(dir, 'hand-made.test.ts')
  writeFileSync(
    fixtureFile,
    `import { test, expect } from '../../fixtures/vitest.js'\nfor (let i = 0; i < ${TESTS}; i++) {\n${body("test('t' + i, ({ fakeProxy }) => { expect(fakeProxy.url).toBeTruthy() })")}}\n`,
  )
  writeFileSync(
    handMadeFile,
    `import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'\nimport { FakeProxy } from '../../src/index.js'\nconst proxy = new FakeProxy()\nbeforeAll(() => proxy.start())\nafterEach(() => proxy.reset())\nafterAll(() => proxy.close())\nfor (let i = 0; i < ${TESTS}; i++) {\n${body("test('t' + i, () => { expect(proxy.url).toBeTruthy() })")}}\n`,
  )
  const run = (file: string): number => {
    const started = process.hrtime.bigint()
    execFileSync('npx', ['vitest', 'run', file, '--config', 'bench/vitest.bench.config.ts', '--reporter=dot'], { stdio: 'ignore' })
    return Number(process.hrtime.bigint() - started) / 1e3 / TESTS
  }
  const times = { fixture: [] as number[], handMade: [] as number[] }
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      times.fixture.push(run(fixtureFile))
      times.handMade.push(run(handMadeFile))
    } else {
      times.handMade.push(run(handMadeFile))
      times.fixture.push(run(fixtureFile))
    }
  }
  rmSync(dir, { recursive: true, force: true })
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const fixture = median(times.fixture)
  const handMade = median(times.handMade)
  return { fixture, handMade, perTestUs: fixture - handMade }
}
