// The Jest config of determinism.test.ts's child runs: the built package, as test/jest uses it.
const root = require('node:path').resolve(__dirname, '../../..')
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/faults.jest.cjs'],
  moduleNameMapper: {
    '^agent-doubles$': `${root}/dist/index.cjs`,
    '^agent-doubles/(matchers|jest)$': `${root}/dist/$1/index.cjs`,
    '^agent-doubles/jest/setup$': `${root}/dist/jest/setup.cjs`,
  },
  setupFilesAfterEnv: ['agent-doubles/jest/setup'],
  transform: {},
}
