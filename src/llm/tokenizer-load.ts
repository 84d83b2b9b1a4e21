/**
 * Loads one of `gpt-tokenizer`'s encodings with its rank table read as JSON rather than
 * imported as a module. The package ships each table as a JavaScript array literal of 200,000
 * entries (2 MB for `o200k_base`): V8 takes 300–380 ms of CPU to parse and run it, where reading
 * the file and `JSON.parse` take about 180, and every test file (every Vitest or Jest worker that
 * isolates its files) that sends an OpenAI-model request pays for the load once. The whole load,
 * tokenizer built and first count made, costs about 15 % less (`BENCH_ONLY=tokens`).
 *
 * The table's text is only taken when it has exactly the shape the package generates
 * (`const c0 = [...];` lines joined by `const bpe = c0.concat(…)`), and a line that is not JSON
 * fails the parse rather than reading differently (JSON's strings are a subset of JavaScript's):
 * anything else gives `undefined`, and the caller imports the package's own module instead.
 * What remains of the load is the package's own: building its encoder (a Map of 200,000
 * entries) takes about as long as reading the table.
 * @module
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** What counting needs of an encoding: the package's `countTokens`. */
export interface LoadedEncoding {
  countTokens(text: string, options?: object): number
}

/** A rank table as the package builds it: per rank, the token's text, or its bytes when they are not UTF-8. */
export type RankTable = Array<string | number[]>

/** One generated line of a table: `const c<n> = [ … ];`. */
const TABLE_LINE = /^const c(\d+) = (\[[^\n]*\]);$/
/** The line that joins them: `const bpe = c0.concat(c1, …);`. */
const JOIN_LINE = /^const bpe = c0\.concat\(((?:c\d+(?:, )?)*)\);$/
/** The other lines the generator writes: comments, emptying the parts, the export. */
const OTHER_LINE = /^(?:|\/\/.*|\/\*.*\*\/|c\d+\.length = 0;|export default bpe;)$/

/**
 * The rank table in `source` (the text of `gpt-tokenizer/esm/bpeRanks/<encoding>.js`), or
 * `undefined` when the text is not in the generated shape this reader knows: every line must
 * be a part, the join, or one of the generator's other lines, so a module that did more with
 * its table than export it is not read as if it did not.
 */
export function parseRankTable(source: string): RankTable | undefined {
  const parts = new Map<string, unknown>()
  let order: string[] | undefined
  for (const line of source.split('\n')) {
    const part = TABLE_LINE.exec(line)
    if (part) {
      try {
        parts.set(`c${part[1]}`, JSON.parse(part[2]!))
      } catch {
        return undefined
      }
      continue
    }
    const join = JOIN_LINE.exec(line)
    if (join && !order) {
      order = ['c0', ...(join[1] ? join[1].split(', ') : [])]
      continue
    }
    if (!OTHER_LINE.test(line)) return undefined
  }
  if (!order || parts.size !== order.length) return undefined
  const table: RankTable = []
  for (const name of order) {
    const part = parts.get(name)
    if (!Array.isArray(part)) return undefined
    for (const entry of part) {
      if (typeof entry !== 'string' && !Array.isArray(entry)) return undefined
      table.push(entry as string | number[])
    }
  }
  return table.length > 0 ? table : undefined
}

/**
 * `encoding` from `gpt-tokenizer`, its rank table read by {@link parseRankTable}; `undefined`
 * when the package's files are not where or what this reader expects (the caller then imports
 * the package's encoding module, which gives the same counts, more slowly).
 */
export async function loadEncodingFast(encoding: 'o200k_base' | 'cl100k_base'): Promise<LoadedEncoding | undefined> {
  const table = readRankTable(encoding)
  if (!table) return undefined
  const { GptEncoding } = (await import('gpt-tokenizer/GptEncoding')) as {
    GptEncoding: { getEncodingApi(name: string, ranks: () => RankTable): LoadedEncoding }
  }
  return GptEncoding.getEncodingApi(encoding, () => table)
}

/**
 * The installed package's table for `encoding`, or `undefined` when its file cannot be found or
 * read, or is not in the generated shape. Resolved from this package (the CommonJS build gets
 * `import.meta.url` from tsup's shim).
 */
function readRankTable(encoding: string): RankTable | undefined {
  try {
    const root = dirname(createRequire(import.meta.url).resolve('gpt-tokenizer/package.json'))
    return parseRankTable(readFileSync(join(root, 'esm', 'bpeRanks', `${encoding}.js`), 'utf8'))
  } catch {
    return undefined
  }
}
