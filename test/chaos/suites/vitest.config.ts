// The Vitest config of the chaos child runs (determinism.test.ts, failure-seed.test.ts).
import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { include: [process.env.CHAOS_SUITE ?? 'test/chaos/suites/faults.vitest.ts'], pool: 'threads' } })
