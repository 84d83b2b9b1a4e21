/**
 * SHA-256 and SHA-512, synchronous, for the fake's derived ids. In Node they are `node:crypto`'s;
 * where there is no `node:crypto` (a browser, an edge runtime: Web Crypto's `digest` is async only)
 * a small SHA-2 in plain JavaScript gives the same bytes, so a seed gives the same id everywhere.
 * @module
 */

type Algorithm = 'sha256' | 'sha512'

interface NodeCrypto {
  createHash(algorithm: Algorithm): { update(text: string): { digest(): Uint8Array } }
  /** The one-shot digest (Node 20.12+): the same bytes without a Hash object per call. */
  hash?(algorithm: Algorithm, text: string, encoding: 'buffer'): Uint8Array
}

/** `node:crypto` where the platform has it, without a static import a browser bundle would fail on. */
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.('node:crypto') as
  | NodeCrypto
  | undefined

/** The SHA-256 digest of `text` (UTF-8). */
export function sha256(text: string): Uint8Array {
  return nodeCrypto ? nodeCrypto.createHash('sha256').update(text).digest() : sha2(SHA256, text)
}

/** The SHA-512 digest of `text` (UTF-8). */
export function sha512(text: string): Uint8Array {
  if (nodeCrypto?.hash) return nodeCrypto.hash('sha512', text, 'buffer')
  return nodeCrypto ? nodeCrypto.createHash('sha512').update(text).digest() : sha2(SHA512, text)
}

/** What tells SHA-256 and SHA-512 apart (FIPS 180-4 §4.1.2, §4.1.3, §5.3). */
interface Sha2Variant {
  /** Bits in a word. */
  bits: 32n | 64n
  rounds: number
  /** Rotations of Σ0 and Σ1; rotations then shift of σ0 and σ1. */
  bigSigma0: [bigint, bigint, bigint]
  bigSigma1: [bigint, bigint, bigint]
  smallSigma0: [bigint, bigint, bigint]
  smallSigma1: [bigint, bigint, bigint]
}

const SHA256: Sha2Variant = { bits: 32n, rounds: 64, bigSigma0: [2n, 13n, 22n], bigSigma1: [6n, 11n, 25n], smallSigma0: [7n, 18n, 3n], smallSigma1: [17n, 19n, 10n] }
const SHA512: Sha2Variant = { bits: 64n, rounds: 80, bigSigma0: [28n, 34n, 39n], bigSigma1: [14n, 18n, 41n], smallSigma0: [1n, 8n, 7n], smallSigma1: [19n, 61n, 6n] }

/** A SHA-2 digest over words held as bigints: slow next to `node:crypto`, and only used without it. */
function sha2(variant: Sha2Variant, text: string): Uint8Array {
  const { bits, rounds } = variant
  const mask = (1n << bits) - 1n
  const wordBytes = Number(bits / 8n)
  const blockBytes = wordBytes * 16
  const rotr = (x: bigint, n: bigint): bigint => ((x >> n) | (x << (bits - n))) & mask
  const sigma = (x: bigint, [a, b, c]: [bigint, bigint, bigint], shiftLast: boolean): bigint =>
    rotr(x, a) ^ rotr(x, b) ^ (shiftLast ? x >> c : rotr(x, c))
  const { initial, constants } = sha2Constants(bits, rounds)

  const message = new TextEncoder().encode(text)
  // The message, a 1 bit, zeros, and its length in bits in the last 2 words of the last block.
  const length = Math.ceil((message.length + 1 + 2 * wordBytes) / blockBytes) * blockBytes
  const padded = new Uint8Array(length)
  padded.set(message)
  padded[message.length] = 0x80
  let bitLength = BigInt(message.length) * 8n
  for (let at = length - 1; bitLength > 0n; at--, bitLength >>= 8n) padded[at] = Number(bitLength & 0xffn)

  const hash = [...initial]
  const schedule: bigint[] = new Array(rounds)
  for (let block = 0; block < length; block += blockBytes) {
    for (let t = 0; t < 16; t++) schedule[t] = readWord(padded, block + t * wordBytes, wordBytes)
    for (let t = 16; t < rounds; t++) {
      schedule[t] = (sigma(schedule[t - 2], variant.smallSigma1, true) + schedule[t - 7] + sigma(schedule[t - 15], variant.smallSigma0, true) + schedule[t - 16]) & mask
    }
    let [a, b, c, d, e, f, g, h] = hash
    for (let t = 0; t < rounds; t++) {
      const t1 = (h + sigma(e, variant.bigSigma1, false) + ((e & f) ^ (~e & mask & g)) + constants[t] + schedule[t]) & mask
      const t2 = (sigma(a, variant.bigSigma0, false) + ((a & b) ^ (a & c) ^ (b & c))) & mask
      ;[h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) & mask, c, b, a, (t1 + t2) & mask]
    }
    const next = [a, b, c, d, e, f, g, h]
    for (let i = 0; i < 8; i++) hash[i] = (hash[i] + next[i]) & mask
  }
  const digest = new Uint8Array(8 * wordBytes)
  hash.forEach((word, i) => {
    for (let j = wordBytes - 1, rest = word; j >= 0; j--, rest >>= 8n) digest[i * wordBytes + j] = Number(rest & 0xffn)
  })
  return digest
}

function readWord(bytes: Uint8Array, at: number, size: number): bigint {
  let word = 0n
  for (let i = 0; i < size; i++) word = (word << 8n) | BigInt(bytes[at + i])
  return word
}

const constantsCache = new Map<bigint, { initial: bigint[]; constants: bigint[] }>()

/**
 * The initial hash (first bits of the fractional parts of the square roots of the first 8
 * primes) and round constants (of the cube roots of the first `rounds` primes), computed rather
 * than copied from a table so no digit can be mistyped.
 */
function sha2Constants(bits: bigint, rounds: number): { initial: bigint[]; constants: bigint[] } {
  const cached = constantsCache.get(bits)
  if (cached) return cached
  const primes = firstPrimes(rounds)
  const mask = (1n << bits) - 1n
  // floor(p^(1/k) · 2^bits) = floor((p · 2^(k·bits))^(1/k)); its low `bits` bits are the fraction's.
  const fraction = (p: number, k: bigint): bigint => integerRoot(BigInt(p) << (k * bits), k) & mask
  const made = { initial: primes.slice(0, 8).map((p) => fraction(p, 2n)), constants: primes.map((p) => fraction(p, 3n)) }
  constantsCache.set(bits, made)
  return made
}

function firstPrimes(count: number): number[] {
  const primes: number[] = []
  for (let n = 2; primes.length < count; n++) if (primes.every((p) => n % p !== 0)) primes.push(n)
  return primes
}

/** The largest x with x^k ≤ n (Newton's method on integers). */
function integerRoot(n: bigint, k: bigint): bigint {
  let x = 1n << (BigInt(n.toString(2).length) / k + 1n)
  for (;;) {
    const next = ((k - 1n) * x + n / x ** (k - 1n)) / k
    if (next >= x) return x
    x = next
  }
}

/** The plain-JavaScript digests, for tests that check them against `node:crypto`. */
export const portableDigest = { sha256: (text: string) => sha2(SHA256, text), sha512: (text: string) => sha2(SHA512, text) }
