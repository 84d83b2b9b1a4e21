// Jest runs the built package (npm run build first), required by name as a user would:
// moduleNameMapper stands in for node_modules/agent-doubles, which Jest cannot self-resolve.
const moduleNameMapper = {
  '^agent-doubles$': '<rootDir>/dist/index.cjs',
  '^agent-doubles/(matchers|jest)$': '<rootDir>/dist/$1/index.cjs',
  '^agent-doubles/jest/setup$': '<rootDir>/dist/jest/setup.cjs',
}

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  // As in vitest.config.ts: the quick loop runs Jest beside Vitest, so a test may wait for a core.
  testTimeout: 15_000,
  moduleNameMapper,
  setupFilesAfterEnv: ['agent-doubles/jest/setup'],
  transform: {},
}

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'jest',
      testMatch: ['<rootDir>/test/jest/*.test.cjs'],
    },
    {
      // The setup entry imports everything from @jest/globals, so it works without injected globals.
      ...shared,
      displayName: 'jest (injectGlobals: false)',
      injectGlobals: false,
      testMatch: ['<rootDir>/test/jest/no-globals/*.test.cjs'],
    },
  ],
}
