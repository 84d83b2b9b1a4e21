/**
 * The files of the throwaway project packed.test.ts installs the tarball into: its package.json,
 * the scripts `node -e` runs to load and resolve every entry, and a Vitest and a Jest setup that
 * use the install the way a user's project does.
 * @module
 */

const esmEntries = [
  'agent-doubles',
  'agent-doubles/matchers',
  'agent-doubles/in-process',
  'agent-doubles/vitest',
  'agent-doubles/vitest/setup',
  'agent-doubles/jest',
  'agent-doubles/jest/setup',
  'agent-doubles/jest/globals',
  'agent-doubles/package.json',
]
const cjsEntries = esmEntries.filter((name) => !name.startsWith('agent-doubles/vitest'))

/** Loads '.' and './matchers' with import; resolves every entry with import.meta.resolve. */
const esmCheck = `
import { realpathSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
const root = await import('agent-doubles')
const m = await import('agent-doubles/matchers')
const inProcess = await import('agent-doubles/in-process')
const base = pathToFileURL(realpathSync(process.cwd()) + '/node_modules/agent-doubles/').href
const resolved = {}
for (const name of ${JSON.stringify(esmEntries)}) {
  const url = import.meta.resolve(name)
  resolved[name] = url.startsWith(base) ? url.slice(base.length) : url
}
console.log(JSON.stringify({
  root: Object.keys(root).sort(),
  matchers: Object.keys(m).sort(),
  matcherNames: Object.keys(m.matchers).sort(),
  inProcessSharesClasses: inProcess.FakeProxy === root.FakeProxy && inProcess.MockAgent === root.MockAgent,
  resolved,
}))
`

/** Loads '.' and './matchers' with require; resolves the CJS entries; the Vitest ones must not resolve. */
const cjsCheck = `
const { realpathSync } = require('node:fs')
const path = require('node:path')
const root = require('agent-doubles')
const m = require('agent-doubles/matchers')
const inProcess = require('agent-doubles/in-process')
const base = path.join(realpathSync(process.cwd()), 'node_modules/agent-doubles') + path.sep
const rel = (file) => (file.startsWith(base) ? file.slice(base.length) : file)
const resolved = {}
for (const name of ${JSON.stringify(cjsEntries)}) resolved[name] = rel(require.resolve(name))
const vitestFromRequire = {}
for (const name of ['agent-doubles/vitest', 'agent-doubles/vitest/setup']) {
  try {
    vitestFromRequire[name] = rel(require.resolve(name))
  } catch (error) {
    vitestFromRequire[name] = error.code
  }
}
console.log(JSON.stringify({
  root: Object.keys(root).sort(),
  matchers: Object.keys(m).sort(),
  matcherNames: Object.keys(m.matchers).sort(),
  inProcessSharesClasses: inProcess.FakeProxy === root.FakeProxy && inProcess.MockAgent === root.MockAgent,
  resolved,
  vitestFromRequire,
}))
`

/** Both copies in one process: brands, matchers across copies, and the shared registry. */
const brandCheck = `
import { createRequire } from 'node:module'
const require = createRequire(process.cwd() + '/')
const cjs = require('agent-doubles')
const esm = await import('agent-doubles')
const { matchers } = await import('agent-doubles/matchers')
// A minimal matcher context: 'pass' is computed eagerly, the message lazily.
const context = { isNot: false, promise: '', equals: (a, b) => a === b, customTesters: [], utils: {} }

const cjsAgent = cjs.mockAgent({ '*': 'done' }, { name: 'cjs_agent' })
const envelope = await cjsAgent('from cjs')
const esmMatcherReadsCjsAgent =
  matchers.toHaveBeenCalledWithTask.call(context, cjsAgent, 'from cjs').pass &&
  !matchers.toHaveBeenCalledWithTask.call(context, cjsAgent, 'other').pass
const esmMatcherReadsCjsEnvelope = matchers.toHaveText.call(context, envelope, 'done').pass
const callsBefore = cjsAgent.calls.length
esm.resetAll()
console.log(JSON.stringify({
  twoCopies: cjs.MockAgent !== esm.MockAgent && cjs.FakeProxy !== esm.FakeProxy,
  cjsAgentIsEsmMockAgent: cjsAgent instanceof esm.MockAgent,
  esmAgentIsCjsMockAgent: esm.mockAgent('ok') instanceof cjs.MockAgent,
  esmProxyIsCjsFakeProxy: new esm.FakeProxy() instanceof cjs.FakeProxy,
  cjsLLMIsEsmScriptedLLM: cjs.scriptedLLM() instanceof esm.ScriptedLLM,
  plainObjectIsNotMockAgent: {} instanceof esm.MockAgent,
  esmMatcherReadsCjsAgent,
  esmMatcherReadsCjsEnvelope,
  esmResetAllClearsCjsAgent: callsBefore === 1 && cjsAgent.calls.length === 0,
}))
`

const vitestConfig = `// Only the setup entry; 'agent-doubles' comes from node_modules, 'vitest' from the repository above.
export default { test: { include: ['*.spec.mjs'], setupFiles: ['agent-doubles/vitest/setup'], pool: 'forks' } }
`

const vitestSpec = `import { createRequire } from 'node:module'
import OpenAI from 'openai'
import { mockAgent } from 'agent-doubles'
import { expect, test } from 'agent-doubles/vitest'

const researcher = mockAgent({ weather: 'sunny' }, { name: 'researcher' })

test('agent-doubles resolves to this project’s node_modules', () => {
  expect(createRequire(import.meta.url).resolve('agent-doubles')).toBe(process.cwd() + '/node_modules/agent-doubles/dist/index.cjs')
})

test('the fakeProxy fixture, reached by new OpenAI()', async ({ fakeProxy }) => {
  const client = new OpenAI({ apiKey: 'test', maxRetries: 0 })
  await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'packed hello' }] })
  expect(fakeProxy).toHaveBeenCalledWithTask('packed hello')
})

test('a module-scope agent is called…', async () => {
  expect((await researcher('weather today')).text()).toBe('sunny')
  expect(researcher).toHaveBeenCalledWithTask('weather today')
})

test('…and reset by the setup entry', () => {
  expect(researcher).not.toHaveBeenCalledWithTask('weather today')
  expect(researcher.calls).toEqual([])
})
`

const jestConfig = `// No moduleNameMapper: Jest resolves agent-doubles from node_modules with the require condition.
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/*.e2e.cjs'],
  setupFilesAfterEnv: ['agent-doubles/jest/setup'],
  transform: {},
}
`

const jestSpec = `const path = require('node:path')
const OpenAI = require('openai')
const { useFakeProxy } = require('agent-doubles/jest')

const proxy = useFakeProxy()

test('agent-doubles resolves to this project’s node_modules', () => {
  expect(require.resolve('agent-doubles')).toBe(path.join(process.cwd(), 'node_modules/agent-doubles/dist/index.cjs'))
})

test('useFakeProxy, reached by new OpenAI()', async () => {
  const client = new OpenAI({ apiKey: 'test', maxRetries: 0 })
  await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'packed hello' }] })
  expect(proxy).toHaveBeenCalledWithTask('packed hello')
})

test('the proxy is reset between tests', () => {
  expect(proxy).toHaveReceivedRequests(0)
})
`

/** File name → text, written into the consumer project. */
export const consumerFiles = {
  // Its own name keeps Node from resolving 'agent-doubles' as a self-reference of the repository.
  'package.json': `${JSON.stringify({ name: 'packed-consumer', private: true, type: 'commonjs' }, null, 2)}\n`,
  'esm-check.mjs': esmCheck,
  'cjs-check.cjs': cjsCheck,
  'brand-check.mjs': brandCheck,
  'vitest.config.mjs': vitestConfig,
  'user.spec.mjs': vitestSpec,
  'jest.config.cjs': jestConfig,
  'user.e2e.cjs': jestSpec,
} as const
