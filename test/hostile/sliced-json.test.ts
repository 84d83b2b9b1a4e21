/**
 * A large body is parsed in pieces with turns of the event loop between (SPEC §24; see
 * src/server/sliced-json.ts): the value must be exactly `JSON.parse`'s, and a body that is not
 * JSON, not UTF-8 or nested too deep gets the same 400 message as a small body would (`JSON.parse`'s
 * own, found by a worker thread).
 */
import { describe, expect, test } from 'vitest'
import { bodyErrors, parseLargeBody } from '../../src/server/large-body.js'
import { LoopSlices } from '../../src/internal/scheduling.js'
import { LEAF_BYTES, parseSliced, scanLarge } from '../../src/server/sliced-json.js'
import { syntaxErrorOf } from '../../src/server/syntax-error.js'

const encode = (text: string): Uint8Array => new TextEncoder().encode(text)

/** What the one-turn path answers for the same bytes. */
function atOnce(bytes: Uint8Array): { kind: 'ok'; json: unknown } | { kind: 'error'; message: string } {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return { kind: 'error', message: bodyErrors.utf8 }
  }
  try {
    return { kind: 'ok', json: JSON.parse(text) }
  } catch (error) {
    return { kind: 'error', message: bodyErrors.json(`${(error as Error).name}: ${(error as Error).message}`) }
  }
}

/** Keys in order, own `__proto__` properties and prototypes included: `toEqual` alone ignores order. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf)
  if (value && typeof value === 'object') {
    return { proto: Object.getPrototypeOf(value) === Object.prototype, entries: Object.keys(value).map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]) }
  }
  return value
}

let seed = 0x5eed
const random = (n: number): number => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
  return seed % n
}
const tricky = ['\\"', '\\\\', '\\n', '\\u00e9', '\\ud83d\\ude00', 'é', '😀', '\u2028', '\ufeff', 'plain ', '\\/', '\\t']
/** A string literal of about `chars` characters, escapes and multi-byte characters everywhere. */
const literal = (chars: number): string => {
  let out = '"'
  while (out.length < chars) out += tricky[random(tricky.length)]
  return `${out}"`
}
const number = (): string => ['0', '-0', '1e400', '3.25', '-12e-3', '123456789012345678901234567890'][random(6)]!

describe('a large body parsed in slices is the value JSON.parse gives', () => {
  const bodies: Record<string, string> = {
    'one long string of escapes and characters cut anywhere': `{"model":"m","messages":[{"role":"user","content":${literal(LEAF_BYTES * 5 + 7)}}]}`,
    'many small items': `{"messages":[${Array.from({ length: 6000 }, (_, i) => `{"role":"user","content":${literal(40 + (i % 30))},"n":${number()}}`).join(',')}]}`,
    'a wide object: duplicate keys, index keys, __proto__': `{"p":{${Array.from({ length: 30000 }, (_, i) => `"${i % 7 === 0 ? 'dup' : i % 5 === 0 ? String(i) : i === 100 ? '__proto__' : `k${i}`}":${i % 3 ? number() : literal(8)}`).join(',')}},"__proto__":{"x":1},"dup":2}`,
    'nested large values, large keys, whitespace everywhere': ` \n{ ${literal(LEAF_BYTES + 3)} : [ ${Array.from({ length: 3 }, () => `{ "a" : [ ${Array.from({ length: 2500 }, () => `${number()} ,\t"x"`).join(' , ')} ] , "b" : ${literal(LEAF_BYTES * 2)} }`).join(' ,\r\n ')} ] , "t": true, "f": false, "z": null, "e": [], "o": {} } \n`,
    'a byte-order mark, then a large value': `\ufeff{"a":[${Array.from({ length: 40000 }, (_, i) => i).join(',')}]}`,
    'a large array at the top': `[${Array.from({ length: 20000 }, () => literal(10)).join(',')}]`,
  }
  test.each(Object.keys(bodies))('%s', async (name) => {
    const bytes = encode(bodies[name]!)
    expect(bytes.byteLength).toBeGreaterThan(LEAF_BYTES * 2)
    const expected = atOnce(bytes)
    expect(expected.kind).toBe('ok')
    // Read in pieces, not by the fallback that parses at once.
    const slices = new LoopSlices()
    const scan = await scanLarge(bytes, 512, slices)
    if (scan.deep) throw new Error('not deep')
    const parsed = await parseSliced(bytes, scan.spans, slices)
    expect(shapeOf(parsed)).toEqual(shapeOf((expected as { json: unknown }).json))
    expect(await parseLargeBody(bytes)).toEqual(expected)
  })
})

describe('a large body that is not JSON gets the message a small one would', () => {
  const valid = `{"messages":[${Array.from({ length: 4000 }, () => `{"role":"user","content":${literal(60)}}`).join(',')}],"s":${literal(LEAF_BYTES * 3)}}`
  const broken: Record<string, string> = {
    'a missing comma between large items': valid.replace('},{', '}{'),
    'a bad escape inside a long string': valid.replace(/"s":"/, '"s":"\\x'),
    'a raw control character inside a long string': valid.slice(0, -LEAF_BYTES) + '\u0001' + valid.slice(-LEAF_BYTES),
    'a bad number in a run': valid.replace('"role"', '"n":01,"role"'),
    'a mismatched bracket': valid.replace(/\]/, '}'),
    'text after the value': `${valid} x`,
    'cut short': valid.slice(0, -10),
    'a key that is not a string': valid.replace('{"messages"', '{messages'),
  }
  test.each(Object.keys(broken))('%s', async (name) => {
    const bytes = encode(broken[name]!)
    const expected = atOnce(bytes)
    expect(expected.kind).toBe('error')
    expect(await parseLargeBody(bytes)).toEqual(expected)
    // The message comes from a worker thread, not from a parse on the event loop.
    expect(bodyErrors.json((await syntaxErrorOf(bytes, new LoopSlices()))!)).toBe((expected as { message: string }).message)
  })

  test('bytes that are not UTF-8, and nesting deeper than the limit, in the order the one-turn path checks them', async () => {
    const bytes = encode(valid)
    bytes[bytes.length - 100] = 0xff
    expect(await parseLargeBody(bytes)).toEqual({ kind: 'error', message: bodyErrors.utf8 })
    const deep = encode(`${'['.repeat(600)}${valid}${']'.repeat(600)}`)
    deep[deep.length - 100] = 0xff
    expect(await parseLargeBody(deep)).toEqual({ kind: 'error', message: bodyErrors.deep })
  })
})
