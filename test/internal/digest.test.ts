/** The plain-JavaScript SHA-2 used where `node:crypto` is missing gives `node:crypto`'s bytes. */
import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { portableDigest, sha256, sha512 } from '../../src/internal/digest.js'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
// Lengths around the block and padding edges (55/56/64 bytes for SHA-256, 111/112/128 for SHA-512), and non-ASCII text.
const inputs = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'b'.repeat(111), 'b'.repeat(112), 'c'.repeat(128), 'c'.repeat(300), 'chat-completion\0fake1_000001', 'héllo wörld — 日本語 🎉']

describe('portable SHA-2', () => {
  test.each(['sha256', 'sha512'] as const)('%s matches node:crypto', (algorithm) => {
    for (const text of inputs) expect(hex(portableDigest[algorithm](text)), JSON.stringify(text)).toBe(createHash(algorithm).update(text).digest('hex'))
  })

  test('the exported digests are node:crypto in Node', () => {
    expect(hex(sha256('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(hex(sha512('abc')).slice(0, 16)).toBe('ddaf35a193617aba')
  })
})
