// The figure of issue 26 (SPEC §21: "adding a provider is one folder and one line in the list of
// dialects"): for each provider of src/wire/providers.ts, the files outside its own folders that
// import one of them or name one of its dialect names. A provider registered only by its line in
// the list touches that file alone. Usage: node scripts/count-provider-touchpoints.mjs [--json] [src]
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'

const json = process.argv.includes('--json')
const root = resolve(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 'src')
const LIST = 'wire/providers.ts'

const files = []
;(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) walk(path)
    else if (name.endsWith('.ts')) files.push(relative(root, path))
  }
})(root)
const text = new Map(files.map((file) => [file, readFileSync(join(root, file), 'utf8')]))
const wireFolders = readdirSync(join(root, 'wire')).filter((name) => statSync(join(root, 'wire', name)).isDirectory())

// One line of the list: `export { geminiProvider as gemini } from './gemini/provider.js'`.
const lines = text.get(LIST).split('\n').filter((line) => line.startsWith('export '))
const rows = lines.map((line) => {
  const [, exported, name, module] = /^export \{ (\w+) as (\w+) \} from '\.\/([^']+)'$/.exec(line) ?? []
  if (!name) throw new Error(`${LIST}: not a provider line: ${line}`)
  const folder = module.split('/')[0]
  // A provider's own folders: its provider's, and the dialect folders named after it (OpenAI's
  // provider is openai/, its dialects openai-chat/, openai-responses/…).
  const own = wireFolders.filter((other) => other === folder || other.startsWith(`${folder}-`))
  const declaration = text.get(`wire/${module.replace(/\.js$/, '.ts')}`)
  const names = [...(/dialectNames: \[([^\]]*)\]/.exec(declaration)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((match) => match[1])
  const touched = []
  for (const [file, source] of text) {
    if (own.some((dir) => file.startsWith(`wire/${dir}/`))) continue
    const imports = [...source.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)].some((match) => {
      const target = relative(root, resolve(root, dirname(file), match[1]))
      return own.some((dir) => target.startsWith(`wire/${dir}/`))
    })
    const named = names.filter((dialect) => source.includes(`'${dialect}'`))
    if (imports || named.length) touched.push({ file, imports, names: named, lines: file === LIST ? source.split('\n').filter((l) => l.includes(`'./${folder}/`)).length : undefined })
  }
  return { provider: name, exported, folders: own, dialectNames: names, touched }
})

if (json) console.log(JSON.stringify(rows, null, 1))
else {
  for (const row of rows) {
    const others = row.touched.filter((touch) => touch.file !== LIST)
    const list = row.touched.find((touch) => touch.file === LIST)
    console.log(`${row.provider} (${row.folders.map((dir) => `wire/${dir}/`).join(', ')}): ${list ? `${list.lines} line in ${LIST}` : `not in ${LIST}`}${others.length ? `, and ${others.length} more file(s):` : ', nothing else'}`)
    for (const touch of others) console.log(`  ${touch.file}${touch.imports ? ' (imports it)' : ''}${touch.names.length ? ` (names ${touch.names.join(', ')})` : ''}`)
  }
}
