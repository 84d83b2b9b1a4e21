/**
 * What a lane costs (SPEC §9, §16): `proxy.lane()` + `close()` is the whole per-test price of
 * isolation on the server side, against `proxy.reset()` — what the first release did between
 * tests. The fixture's total overhead per test is in bench/fixtures/figures.ts.
 */
import { FakeProxy } from 'agent-doubles'
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
