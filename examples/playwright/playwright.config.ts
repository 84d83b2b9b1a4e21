import { defineConfig } from '@playwright/test'

// Headless Chromium from the system (Debian's /usr/bin/chromium, or CHROMIUM_PATH): nothing is
// downloaded. The flags keep a container's Chromium quiet and off the network.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Traces and failure context go under the ignored .tmp/, not the project root.
  outputDir: '../../.tmp/playwright-results',
  reporter: 'list',
  forbidOnly: true,
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    },
  },
})
