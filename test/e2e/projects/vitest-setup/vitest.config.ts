// A user's config with the setup entry, resolved by name to the built package (dist/).
// isolate: false with one worker: the files share a process, so 3-closed.spec.ts can see that
// the proxy 2-proxy.spec.ts left running was closed when its file ended.
import { fileURLToPath } from 'node:url'
import { ByNameSequencer, cacheDirOf, node24Aliases, vitestMajor } from '../shared-config.js'

export default {
  root: fileURLToPath(new URL('.', import.meta.url)),
  cacheDir: cacheDirOf('vitest-setup'),
  resolve: { alias: vitestMajor === 5 ? node24Aliases() : [] },
  test: {
    include: ['*.spec.ts'],
    setupFiles: ['agent-doubles/vitest/setup'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 1,
    sequence: { sequencer: ByNameSequencer },
    testTimeout: 20_000,
  },
}
