// A minimal Jest transformer: TypeScript and ESM syntax → CommonJS with esbuild, so the Jest
// suites and examples are written in TypeScript like the rest of the project.
const { transformSync } = require('esbuild')

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: filename.endsWith('.ts') ? 'ts' : 'js',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'inline',
      sourcefile: filename,
    })
    return { code, map }
  },
}
