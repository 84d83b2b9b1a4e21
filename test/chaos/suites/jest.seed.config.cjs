// The Jest config of run-seed.test.ts's child run: two files on the built package, with the
// package's global setup drawing the run's chaos seed.
const root = require('node:path').resolve(__dirname, '../../..')
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testTimeout: 60_000,
  testMatch: ['<rootDir>/seed-*.jest.cjs'],
  moduleNameMapper: {
    '^agent-doubles$': `${root}/dist/index.cjs`,
    '^agent-doubles/(matchers|jest)$': `${root}/dist/$1/index.cjs`,
    '^agent-doubles/jest/setup$': `${root}/dist/jest/setup.cjs`,
  },
  globalSetup: `${root}/dist/jest/global-setup.cjs`,
  setupFilesAfterEnv: ['agent-doubles/jest/setup'],
  transform: {},
}
