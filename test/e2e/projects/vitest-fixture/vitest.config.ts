// No setup file: everything comes from `import { test } from 'agent-doubles/vitest'`, resolved
// by name to the built package (dist/).
import { fileURLToPath } from 'node:url'
import { cacheDirOf, node24Aliases, vitestMajor } from '../shared-config.js'

export default {
  root: fileURLToPath(new URL('.', import.meta.url)),
  cacheDir: cacheDirOf('vitest-fixture'),
  resolve: { alias: vitestMajor === 5 ? node24Aliases() : [] },
  test: {
    include: ['*.spec.ts'],
    pool: 'forks',
    testTimeout: 20_000,
  },
}
