/**
 * Every public name is documented: each name an entry of package.json "exports" gives has TSDoc
 * on its declaration, and appears in the docs site — a function, class or constant in a code
 * example, a type at least by name. The entries' export graphs are read syntactically (each
 * `export … from` followed to its declaration), so this needs no build and no type check.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The source of each subpath of package.json "exports" (as tsup.config.ts builds them). */
const entries: Record<string, string> = {
  '.': 'src/index.ts',
  './in-process': 'src/in-process.ts',
  './matchers': 'matchers/index.ts',
  './vitest': 'fixtures/vitest.ts',
  './vitest/setup': 'fixtures/vitest-setup.ts',
  './vitest/global-setup': 'fixtures/vitest-global-setup.ts',
  './jest': 'fixtures/jest.ts',
  './jest/setup': 'fixtures/jest-setup.ts',
  './jest/global-setup': 'fixtures/jest-global-setup.ts',
  './jest/globals': 'fixtures/jest-globals.ts',
  './playwright': 'src/playwright.ts',
}

interface PublicName {
  name: string
  /** A function, class, constant or enum (needs a code example), or a type (needs a mention). */
  kind: 'value' | 'type'
  /** Its TSDoc, or '' when it has none. */
  doc: string
}

const parsed = new Map<string, ts.SourceFile>()
function source(file: string): ts.SourceFile {
  let sf = parsed.get(file)
  if (!sf) parsed.set(file, (sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)))
  return sf
}

/** The file a relative module specifier names (`./x.js` is `./x.ts`), or undefined for a package. */
function resolveModule(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined
  const base = resolve(dirname(from), specifier)
  return [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')].find((file) => existsSync(file))
}

const docOf = (node: ts.Node): string =>
  ts
    .getJSDocCommentsAndTags(node)
    .map((doc) => doc.getText())
    .join('\n')
    .trim()

const hasExport = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)

/** The declaration of `name` in `file` (following imports and re-exports), as a public name. */
function declaration(file: string, name: string, typeOnly: boolean, seen = new Set<string>()): PublicName | undefined {
  // `seen` guards one chain of re-exports against a cycle; a name is looked up afresh on each chain.
  const key = `${file}#${name}`
  if (seen.has(key)) return undefined
  seen.add(key)
  try {
    return findDeclaration(file, name, typeOnly, seen)
  } finally {
    seen.delete(key)
  }
}

function findDeclaration(file: string, name: string, typeOnly: boolean, seen: Set<string>): PublicName | undefined {
  const sf = source(file)
  for (const statement of sf.statements) {
    if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name?.text === name) {
      return { name, kind: typeOnly ? 'type' : 'value', doc: docOf(statement) }
    }
    if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.name.text === name) {
      return { name, kind: 'type', doc: docOf(statement) }
    }
    if (ts.isVariableStatement(statement) && statement.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name)) {
      return { name, kind: typeOnly ? 'type' : 'value', doc: docOf(statement) }
    }
    if (ts.isImportDeclaration(statement) && statement.importClause && ts.isStringLiteral(statement.moduleSpecifier)) {
      const bindings = statement.importClause.namedBindings
      if (bindings && ts.isNamedImports(bindings)) {
        const spec = bindings.elements.find((element) => element.name.text === name)
        if (spec) {
          const target = resolveModule(file, statement.moduleSpecifier.text)
          const original = spec.propertyName?.text ?? name
          const only = typeOnly || statement.importClause.isTypeOnly || spec.isTypeOnly
          if (target) return declaration(target, original, only, seen)
          return { name, kind: only ? 'type' : 'value', doc: '' }
        }
      }
    }
  }
  return exportsOf(file, seen).get(name)
}

/** The public names `file` exports. */
function exportsOf(file: string, seen = new Set<string>()): Map<string, PublicName> {
  const names = new Map<string, PublicName>()
  const sf = source(file)
  for (const statement of sf.statements) {
    if (ts.isExportDeclaration(statement)) {
      const target = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? resolveModule(file, statement.moduleSpecifier.text) : file
      const clause = statement.exportClause
      if (!clause) {
        if (target) for (const [name, found] of exportsOf(target, seen)) if (!names.has(name)) names.set(name, found)
        continue
      }
      if (!ts.isNamedExports(clause)) continue
      for (const spec of clause.elements) {
        const name = spec.name.text
        const original = spec.propertyName?.text ?? name
        const typeOnly = statement.isTypeOnly || spec.isTypeOnly
        // A name re-exported from a package (vitest's `expect`) carries its TSDoc on the export.
        const found = target ? declaration(target, original, typeOnly, seen) : undefined
        const doc = found?.doc || docOf(statement)
        names.set(name, { name, kind: found?.kind ?? (typeOnly ? 'type' : 'value'), doc })
      }
      continue
    }
    if (!hasExport(statement)) continue
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.set(d.name.text, { name: d.name.text, kind: 'value', doc: docOf(statement) })
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      names.set(statement.name.text, { name: statement.name.text, kind: 'value', doc: docOf(statement) })
    } else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.name) {
      names.set(statement.name.text, { name: statement.name.text, kind: 'type', doc: docOf(statement) })
    }
  }
  return names
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'api' || entry.name.startsWith('.') ? [] : markdownFiles(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

/** The docs' code: fenced blocks (and the example files they include), and inline code. */
const pages = markdownFiles(join(root, 'docs')).map((page) => readFileSync(page, 'utf8'))
const included = pages.flatMap((page) => [...page.matchAll(/^<<< @\/\.\.\/(\S+?)(?:\{[^}]*\})?$/gm)].map((match) => readFileSync(join(root, match[1]!), 'utf8')))
const examples = [...pages.flatMap((page) => [...page.matchAll(/```[\s\S]*?```/g)].map((match) => match[0])), ...included].join('\n')
const mentions = pages.flatMap((page) => [...page.matchAll(/`[^`\n]+`/g)].map((match) => match[0])).join('\n')
const word = (name: string) => new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`)

describe('every public name has TSDoc and appears in the docs', () => {
  test('package.json "exports" lists exactly the entries checked here', () => {
    const exported = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
    expect(exported.filter((path) => path !== './package.json').sort()).toEqual(Object.keys(entries).sort())
  })

  for (const [entry, file] of Object.entries(entries)) {
    test(`agent-doubles${entry.slice(1)} (${file})`, () => {
      const names = [...exportsOf(join(root, file)).values()]
      const undocumented = names.filter((name) => name.doc === '').map((name) => name.name)
      const noExample = names.filter((name) => name.kind === 'value' && !word(name.name).test(examples)).map((name) => name.name)
      const unmentioned = names.filter((name) => name.kind === 'type' && !word(name.name).test(mentions) && !word(name.name).test(examples)).map((name) => name.name)
      expect({ undocumented, noExample, unmentioned }, `${relative(root, join(root, file))}: names without TSDoc, functions/classes/constants in no code example of docs/, types named nowhere in docs/`).toEqual({
        undocumented: [],
        noExample: [],
        unmentioned: [],
      })
    })
  }
})
