// The Jest config of failure-seed.test.ts's child run: the failing suite, on the built package.
const root = require('node:path').resolve(__dirname, '../../..')
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testTimeout: 60_000,
  testMatch: ['<rootDir>/failing.jest.cjs'],
  moduleNameMapper: {
    '^agent-doubles$': `${root}/dist/index.cjs`,
    '^agent-doubles/(matchers|jest)$': `${root}/dist/$1/index.cjs`,
    '^agent-doubles/jest/setup$': `${root}/dist/jest/setup.cjs`,
  },
  setupFilesAfterEnv: ['agent-doubles/jest/setup'],
  transform: {},
}
