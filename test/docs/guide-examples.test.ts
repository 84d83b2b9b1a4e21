/**
 * The guides show tested code: each client and framework guide includes its example from
 * examples/ with VitePress's code import (`<<< @/../examples/…`), so the page is the file by
 * construction; this checks that every import names a file that exists and that `npm run examples`
 * runs — a test file of the Vitest or Jest examples config, or a program one of those tests imports.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const docs = join(root, 'docs')

/** The guide of each client and framework, which must show a tested example. */
const clientGuides = ['openai', 'anthropic', 'ai-sdk', 'openai-agents', 'langchain', 'langgraph', 'mastra', 'llamaindex', 'genkit', 'mcp']

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'api' || entry.name.startsWith('.') ? [] : markdownFiles(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

/** The example files a page includes. */
function importsOf(page: string): string[] {
  return [...readFileSync(page, 'utf8').matchAll(/^<<< @\/\.\.\/(examples\/\S+?)(?:\{[^}]*\})?$/gm)].map((match) => match[1]!)
}

/** What `npm run examples` runs: the Vitest config's test files and the Jest config's. */
const isVitestExample = (path: string) => path.endsWith('.test.ts') && !path.endsWith('.jest.test.ts')
const isJestExample = (path: string) => path.endsWith('.jest.test.ts')

describe('the guides include examples that npm run examples runs', () => {
  test('npm run examples runs both example configs, and the Vitest one every Vitest example once', async () => {
    const script = readFileSync(join(root, 'scripts/examples.sh'), 'utf8')
    expect(script).toContain('--config examples/vitest.config.ts')
    expect(script).toContain('--config examples/jest.config.cjs')
    expect(readFileSync(join(root, 'examples/jest.config.cjs'), 'utf8')).toContain("testMatch: ['**/*.jest.test.ts']")
    const { default: config } = (await import('../../examples/vitest.config.js')) as { default: { test: { projects: Array<{ test: { include: string[] } }> } } }
    const included = config.test.projects.flatMap((project) => project.test.include).sort()
    const examples = readdirSync(join(root, 'examples'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && isVitestExample(entry.name) && !entry.parentPath.includes('node_modules'))
      .map((entry) => relative(join(root, 'examples'), join(entry.parentPath, entry.name)))
      .sort()
    expect(examples.length).toBeGreaterThan(10)
    expect(included).toEqual(examples)
  })

  for (const guide of clientGuides) {
    test(`docs/guide/${guide}.md includes an example program and its test`, () => {
      const page = join(docs, 'guide', `${guide}.md`)
      expect(existsSync(page), `docs/guide/${guide}.md`).toBe(true)
      const included = importsOf(page)
      expect(included.some(isVitestExample), `docs/guide/${guide}.md includes no Vitest example test`).toBe(true)
      expect(included.some((path) => !path.endsWith('.test.ts')), `docs/guide/${guide}.md includes no example program`).toBe(true)
    })
  }

  test('every code import of every page names an example file that runs', () => {
    const imports = markdownFiles(docs).flatMap((page) => importsOf(page).map((path) => ({ page: relative(root, page), path })))
    expect(imports.length).toBeGreaterThanOrEqual(clientGuides.length * 2)
    for (const { page, path } of imports) {
      const file = join(root, path)
      expect(existsSync(file), `${page} includes ${path}, which does not exist`).toBe(true)
      if (isVitestExample(path) || isJestExample(path)) continue
      // A program: some example test beside it imports it.
      const name = path.split('/').at(-1)!.replace(/\.ts$/, '')
      const folder = dirname(file)
      const importers = readdirSync(folder).filter(
        (other) => other.endsWith('.test.ts') && readFileSync(join(folder, other), 'utf8').includes(`from './${name}.js'`),
      )
      expect(importers, `${page} includes ${path}, which no example test imports`).not.toEqual([])
    }
  })
})
