// A user's Jest config in a "type": "module" project: an ES module (export default), run with
// node --experimental-vm-modules. Jest cannot resolve the package by its own name here, so the
// names map to the built ESM files (dist/) — what node_modules/agent-doubles would hold.
import { fileURLToPath } from 'node:url'

const dist = fileURLToPath(new URL('../../../../dist', import.meta.url))

/** @type {import('jest').Config} */
export default {
  rootDir: fileURLToPath(new URL('.', import.meta.url)),
  testEnvironment: 'node',
  testMatch: ['<rootDir>/*.e2e.{js,ts}'],
  moduleNameMapper: {
    '^agent-doubles$': `${dist}/index.js`,
    '^agent-doubles/(matchers|jest)$': `${dist}/$1/index.js`,
    '^agent-doubles/jest/setup$': `${dist}/jest/setup.js`,
  },
  // A user writes 'agent-doubles/jest/setup'; this folder is not installed in node_modules.
  setupFilesAfterEnv: [`${dist}/jest/setup.js`],
  // TypeScript test files stay ES modules: .ts is treated as ESM and the transform keeps import/export.
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '\\.ts$': '<rootDir>/esbuild-transform.cjs' },
}
