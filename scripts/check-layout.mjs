// Layout check (SPEC §21): counts import circles in src/ (type-only imports included) and lists
// any import from src/wire/ into the server, gateway or upstream rooms. Usage: node scripts/check-layout.mjs [src]
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
import { dirname, join, resolve, relative } from 'node:path'
const root = resolve(process.argv[2] ?? 'src')
const files = []
;(function walk(d) { for (const n of readdirSync(d)) { const p = join(d, n); statSync(p).isDirectory() ? walk(p) : /\.ts$/.test(n) && files.push(p) } })(root)
const edges = new Map()
const inside = new Set(files)
const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g
for (const f of files) {
  const out = new Set()
  for (const m of readFileSync(f, 'utf8').matchAll(re)) {
    const b = resolve(dirname(f), m[1])
    const t = [b.replace(/\.js$/, '.ts'), b + '.ts', join(b, 'index.ts')].find((c) => existsSync(c) && statSync(c).isFile())
    // Only files under the root: an import leaving it (src/playwright.ts → ../matchers) is no circle of src.
    if (t && inside.has(t)) out.add(t)
  }
  edges.set(f, out)
}
// Tarjan
let index = 0; const idx = new Map(), low = new Map(), stack = [], on = new Set(), sccs = []
function strong(v) {
  idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v)
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))) }
    else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
  }
  if (low.get(v) === idx.get(v)) { const c = []; let w; do { w = stack.pop(); on.delete(w); c.push(w) } while (w !== v); if (c.length > 1 || edges.get(v)?.has(v)) sccs.push(c) }
}
for (const f of files) if (!idx.has(f)) strong(f)
console.log(`import circles (strongly connected groups) in ${relative(process.cwd(), root)}: ${sccs.length}`)
for (const c of sccs) console.log('  ' + c.map((f) => relative(root, f)).join(' <-> '))
const bad = []
for (const [f, out] of edges) if (relative(root, f).startsWith('wire/')) for (const t of out) if (/^(server|gateway|upstream)\//.test(relative(root, t))) bad.push(`${relative(root, f)} -> ${relative(root, t)}`)
console.log(`src/wire imports of server/gateway/upstream: ${bad.length}`)
for (const b of bad) console.log('  ' + b)
process.exitCode = sccs.length || bad.length ? 1 : 0
