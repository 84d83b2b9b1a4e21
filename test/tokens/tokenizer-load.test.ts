/**
 * The tokenizer's rank table read as JSON (src/llm/tokenizer-load.ts): the same table, entry by
 * entry, as the package's own module, the same counts, and `undefined` (the caller's cue to
 * import the module instead) for any text not in the generated shape.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, test } from 'vitest'
import { loadEncodingFast, parseRankTable } from '../../src/llm/tokenizer-load.js'

const packageRoot = dirname(createRequire(import.meta.url).resolve('gpt-tokenizer/package.json'))
const tableSource = (encoding: string): string => readFileSync(join(packageRoot, 'esm', 'bpeRanks', `${encoding}.js`), 'utf8')

describe('parseRankTable', () => {
  test.each(['o200k_base', 'cl100k_base'])('reads %s exactly as the package module builds it', async (encoding) => {
    const parsed = parseRankTable(tableSource(encoding))
    const { default: imported } = (await import(`gpt-tokenizer/bpeRanks/${encoding}`)) as { default: Array<string | number[]> }
    expect(parsed).toBeDefined()
    expect(parsed!.length).toBe(imported.length)
    // Compared entry by entry (holes included): a deep equality of 200k entries would print nothing useful.
    const differing: number[] = []
    for (let rank = 0; rank < imported.length && differing.length < 5; rank++) {
      const [mine, theirs] = [parsed![rank], imported[rank]]
      const same = typeof theirs === 'string' ? mine === theirs : Array.isArray(mine) && Array.isArray(theirs) && mine.length === theirs.length && mine.every((byte, i) => byte === theirs[i])
      if (!same) differing.push(rank)
    }
    expect(differing).toEqual([])
  })

  test('joins the parts in the order the join line names them', () => {
    const source = 'const c0 = ["a", [255]];\nconst c1 = ["b"];\nconst bpe = c0.concat(c1);\nexport default bpe;\n'
    expect(parseRankTable(source)).toEqual(['a', [255], 'b'])
  })

  test.each([
    ['no join line', 'const c0 = ["a"];\nexport default c0;\n'],
    ['a part the join line names but the text lacks', 'const c0 = ["a"];\nconst bpe = c0.concat(c1);\n'],
    ['a part the join line does not name', 'const c0 = ["a"];\nconst c1 = ["b"];\nconst c2 = ["c"];\nconst bpe = c0.concat(c1);\n'],
    ['a JavaScript-only string (single quotes)', "const c0 = ['a'];\nconst bpe = c0.concat();\n"],
    ['a JavaScript-only escape', 'const c0 = ["\\x41"];\nconst bpe = c0.concat();\n'],
    ['an entry that is neither text nor bytes', 'const c0 = ["a", 7];\nconst bpe = c0.concat();\n'],
    ['an empty table', 'const c0 = [];\nconst bpe = c0.concat();\n'],
    ['a module that does more with its table than export it', 'const c0 = ["a"];\nconst bpe = c0.concat();\nbpe.reverse();\nexport default bpe;\n'],
  ])('gives undefined for %s', (_case, source) => {
    expect(parseRankTable(source)).toBeUndefined()
  })
})

describe('loadEncodingFast', () => {
  test('counts as the package module counts, special-token text and bytes that are not UTF-8 included', async () => {
    const fast = await loadEncodingFast('o200k_base')
    expect(fast).toBeDefined()
    const options = { disallowedSpecial: new Set<string>() }
    const texts = [
      'Hello, world!',
      'Ünïcödé, emoji 🚀 and CJK 漢字 all count as the tokenizer counts them.',
      'Text that spells a special token, <|endoftext|>, is ordinary text in a prompt.',
      '\u0000\u0001 control characters, a lone surrogate \ud800 and 1234567890 digits',
      'def f(x):\n    return {"a": [1, 2, 3]}  # code\n\t\ttabs',
    ]
    expect(texts.map((text) => fast!.countTokens(text, options))).toEqual(texts.map((text) => o200k.countTokens(text, options)))
  })
})
