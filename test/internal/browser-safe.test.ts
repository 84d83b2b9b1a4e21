/**
 * The guard behind `agent-doubles/in-process` (SPEC §16: `proxy.fetch` usable where no server
 * can run): bundled for a browser, the code the entry loads — its static import graph, not what
 * `start()`, record mode or file reading load on call — imports no `node:` module or undici and
 * reads no Node global. The browser-mode run (npm run test:browser) drives it for real; this
 * check runs in the quick loop and names the file that broke it.
 */
import { build, type Metafile } from 'esbuild'
import { expect, test } from 'vitest'

/** Node globals a browser or an edge runtime lacks, each turned into a marker esbuild leaves in the output. */
const nodeGlobals = ['Buffer', 'process', 'require', 'setImmediate', '__dirname', '__filename']

async function bundle(entry: string) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: ['node:*', 'undici'],
    define: Object.fromEntries(nodeGlobals.map((name) => [name, `__NODE_GLOBAL_${name}__`])),
  })
  return { metafile: result.metafile, texts: new Map(result.outputFiles.map((file) => [file.path.slice(file.path.lastIndexOf('/out/') + 1), file.text])) }
}

/** The outputs the entry loads at once: itself and the chunks it imports statically. */
function loadedAtOnce(metafile: Metafile, entry: string): string[] {
  const seen = new Set<string>()
  const visit = (output: string): void => {
    if (seen.has(output)) return
    seen.add(output)
    for (const item of metafile.outputs[output].imports) if (item.kind === 'import-statement' && !item.external) visit(item.path)
  }
  visit(Object.keys(metafile.outputs).find((output) => metafile.outputs[output].entryPoint === entry)!)
  return [...seen]
}

test.each(['src/in-process.ts', 'matchers/index.ts'])('%s loads without Node', async (entry) => {
  const { metafile, texts } = await bundle(entry)
  const loaded = loadedAtOnce(metafile, entry)
  const nodeImports = loaded.flatMap((output) =>
    metafile.outputs[output].imports.filter((item) => item.external && item.kind === 'import-statement').map((item) => `${output} imports ${item.path}`),
  )
  expect(nodeImports).toEqual([])
  const globalsRead = loaded.flatMap((output) =>
    [...texts.get(output)!.matchAll(/__NODE_GLOBAL_(\w+?)__/g)].map((match) => `${output} reads ${match[1]}: …${texts.get(output)!.slice(Math.max(0, match.index - 60), match.index + 40)}…`),
  )
  expect(globalsRead).toEqual([])
})

test('the check sees what it guards against', async () => {
  // The server module itself: the marker and the import show up, so an empty result above means something.
  const { metafile, texts } = await bundle('src/server/server.ts')
  const loaded = loadedAtOnce(metafile, 'src/server/server.ts')
  expect(loaded.flatMap((output) => metafile.outputs[output].imports.map((item) => item.path))).toContain('node:http')
  expect(loaded.some((output) => texts.get(output)!.includes('__NODE_GLOBAL_Buffer__'))).toBe(true)
})
