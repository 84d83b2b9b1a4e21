import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'

/**
 * `proxy.fetch` in a real headless Chromium (Vitest browser mode): `npm run test:browser`.
 * Chromium is the system's (`CHROMIUM_PATH`, default /usr/bin/chromium): nothing is downloaded;
 * scripts/test-browser.sh says so and stops when there is none.
 */
export default defineConfig({
  // Its own cache in the checkout (.tmp/ is ignored), not node_modules/.vite, which worktrees
  // sharing one node_modules would overwrite under each other.
  cacheDir: '.tmp/vite-browser',
  // Pre-bundled at start, so the run does not reload the page half-way to add one.
  optimizeDeps: { include: ['openai', '@anthropic-ai/sdk', 'ai', '@ai-sdk/openai', '@ai-sdk/anthropic'] },
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 15_000,
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({ launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' } }),
      instances: [{ browser: 'chromium' }],
    },
  },
})
