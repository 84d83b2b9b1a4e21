// A Jest transform for TypeScript on esbuild that keeps ES modules when Jest runs them as ESM
// (--experimental-vm-modules), and writes CommonJS otherwise. ts-jest's ESM preset and
// @swc/jest are the packaged alternatives.
const { transformSync } = require('esbuild')

module.exports = {
  process(source, filename, options) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: options.supportsStaticESM ? 'esm' : 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: filename,
    })
    return { code, map }
  },
}
