/**
 * docs/compatibility.md is generated from the suite (scripts/docs-compat.mjs reads which test and
 * example files import each client, the installed versions and the dialects the tests assert
 * on): this keeps the committed page equal to what the generator prints now.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

test('docs/compatibility.md is what npm run docs:compat generates from the tests', () => {
  const check = spawnSync(process.execPath, ['scripts/docs-compat.mjs', '--check'], { cwd: root, encoding: 'utf8' })
  expect(check.stderr, 'run npm run docs:compat and commit docs/compatibility.md').toBe('')
  expect(check.status).toBe(0)
})

test('the page lists LangGraph.js, LlamaIndex.TS and Genkit as tested', () => {
  const page = readFileSync(`${root}docs/compatibility.md`, 'utf8')
  for (const name of ['LangGraph.js', 'LlamaIndex.TS', 'Genkit']) {
    expect(page).toMatch(new RegExp(`^\\| \\[${name.replace('.', '\\.')}\\]\\([^)]*\\) \\|.*✅ tested`, 'm'))
  }
})
