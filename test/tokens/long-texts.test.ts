/**
 * Long texts (SPEC §24): a text of more than 64K characters is searched for runs of letters a
 * window at a time, so counting megabytes never holds the event loop in one regex search. The
 * count is the one the pieces give — plain text as the tokenizer counts it, each run of more than
 * 256 letters in pieces of 256 from its start — wherever the runs fall against the windows.
 */
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import { expect, test } from 'vitest'
import { countWithTurns, prepareTokenCounter } from '../../src/llm/tokens.js'
import { countTokens } from '../../src/index.js'

const WINDOW = 64 * 1024
const options = { disallowedSpecial: new Set<string>() }

/** The count made from the text's regions, with the reference tokenizer. */
function reference(text: string): number {
  let total = 0
  let at = 0
  const plain = (region: string): number => (region === '' ? 0 : o200k.countTokens(region, options))
  for (const run of text.matchAll(/[\p{L}\p{M}]{257,}/gu)) {
    total += plain(text.slice(at, run.index))
    for (let i = 0; i < run[0].length; i += 256) total += o200k.countTokens(run[0].slice(i, i + 256), options)
    at = run.index + run[0].length
  }
  return total + plain(text.slice(at))
}

/** Words, with runs of letters that end and start around every window's edge, and one across several windows. */
function longText(seed: number): string {
  let text = ''
  let n = seed
  for (let edge = WINDOW; edge < 6 * WINDOW; edge += WINDOW) {
    while (text.length < edge - 300 - (n % 700)) text += `word${(n = (n * 7919 + 13) % 5003)} `
    text += (n % 2 ? 'x' : 'é').repeat(257 + (n % 900)) + ' '
  }
  text += `${'q'.repeat(3 * WINDOW + 11)} tail words here`
  return text
}

test('a long text is counted as its regions are, runs across windows included', async () => {
  await prepareTokenCounter('gpt-4o')
  const text = longText(1)
  expect(text.length).toBeGreaterThan(7 * WINDOW)
  expect(countTokens(text, 'gpt-4o')).toBe(reference(text))
  // In turns, the same count.
  const other = longText(2)
  let turns = 0
  expect(await countWithTurns('o200k_base', other, () => (turns++, undefined))).toBe(reference(other))
  expect(turns).toBeGreaterThan(20)
})

test('a value holding a long string is laid out with the string joined in as it is: the same text as its JSON when nothing needs escaping, the string not written out again', async () => {
  const { textOfValue } = await import('../../src/wire/prompt-layout.js')
  const description = 'word '.repeat(300_000)
  const tool = { type: 'function', function: { name: 'f', description, parameters: { type: 'object', properties: { a: { type: 'string', description } } } } }
  expect(textOfValue(tool)).toBe(JSON.stringify(tool))
  // A short value is its JSON, escapes and all; a long string keeps its quotes and newlines as they are.
  expect(textOfValue({ a: 'say "hi"\n' })).toBe(JSON.stringify({ a: 'say "hi"\n' }))
  const quoted = `"${description}\n"`
  expect(textOfValue({ a: quoted, b: 1 })).toBe(`{"a":"${quoted}","b":1}`)
})
