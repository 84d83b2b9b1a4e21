/**
 * The README is the front page: short, true to the docs it maps, and honest about install and
 * the test commands.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const readme = readFileSync(`${root}README.md`, 'utf8')
const codeBlocks = [...readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((match) => ({ lang: match[1], code: match[2]! }))

test('is at most 250 lines', () => {
  expect(readme.split('\n').length).toBeLessThanOrEqual(250)
})

test('every relative link names a file or folder of the repository', () => {
  const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)]+)\)/g)].map((match) => match[1]!)
  expect(links.length).toBeGreaterThan(20)
  for (const link of links) expect(existsSync(`${root}${link.split('#')[0]}`), link).toBe(true)
})

test('says the package is not on npm yet and how to install the packed tarball', () => {
  expect(readme).toMatch(/not published on npm yet/)
  expect(readme).toContain('npm pack')
  expect(readme).toContain('npm install -D ./agent-doubles-0.1.0.tgz')
})

test('the Vitest quick start points its client at fakeProxy', () => {
  const vitestTest = codeBlocks.find((block) => block.lang === 'ts' && block.code.includes("from 'agent-doubles/vitest'") && block.code.includes('test('))
  expect(vitestTest?.code).toContain('baseURL: `${fakeProxy.url}/v1`')
})

test('names the quick loop and the matrix CI runs', () => {
  expect(readme).toMatch(/npm test\s+# the quick loop/)
  expect(readme).toMatch(/npm run test:all\s+# the whole matrix CI runs/)
  expect(readFileSync(`${root}.ci/run`, 'utf8')).toContain('npm run test:all')
})

test('its opening table says what FakeProxy serves: the nine dialects', () => {
  const row = readme.split('\n').find((line) => line.startsWith('| **FakeProxy**'))
  expect(row).toContain('nine provider dialects')
  for (const name of ['OpenAI Chat Completions', 'Responses', 'embeddings', 'Anthropic Messages', 'Gemini', 'Ollama', 'Amazon Bedrock', 'Azure OpenAI']) {
    expect(row).toContain(name)
  }
})
