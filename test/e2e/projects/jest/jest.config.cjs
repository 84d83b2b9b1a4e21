// A user's Jest config with the setup entry. Jest cannot resolve the package by its own name,
// so the names map to the built files (dist/) — what node_modules/agent-doubles would hold.
const path = require('node:path')

const dist = path.resolve(__dirname, '../../../../dist')

/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/*.e2e.cjs'],
  moduleNameMapper: {
    '^agent-doubles$': `${dist}/index.cjs`,
    '^agent-doubles/(matchers|jest)$': `${dist}/$1/index.cjs`,
    '^agent-doubles/jest/setup$': `${dist}/jest/setup.cjs`,
  },
  setupFilesAfterEnv: ['agent-doubles/jest/setup'],
  transform: {},
}
