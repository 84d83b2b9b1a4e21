// The Vitest config of determinism.test.ts's child runs.
import { defineConfig } from 'vitest/config'

export default defineConfig({ test: { include: ['test/chaos/suites/faults.vitest.ts'], pool: 'threads' } })
