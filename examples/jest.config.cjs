// Jest runs the examples against the built package, as a user's project would.
const path = require('node:path')
const dist = path.join(__dirname, '..', 'dist')

module.exports = {
  rootDir: __dirname,
  testMatch: ['**/*.jest.test.ts'],
  testEnvironment: 'node',
  // As in examples/vitest.config.ts: the MCP example loads its transport inside the test, which a
  // busy machine can stretch past Jest's default 5 s.
  testTimeout: 15_000,
  transform: { '\\.[cm]?[jt]s$': path.join(__dirname, '..', 'scripts', 'jest-esbuild-transform.cjs') },
  moduleNameMapper: {
    '^agent-doubles$': path.join(dist, 'index.cjs'),
    '^agent-doubles/(jest|jest/setup|matchers)$': path.join(dist, '$1/index.cjs'),
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  setupFilesAfterEnv: [path.join(dist, 'jest', 'setup.cjs')],
}
