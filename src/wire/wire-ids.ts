/**
 * Ids in the providers' own formats (prefix, alphabet and length of recorded real traffic),
 * derived from a seed so the same proxy gives the same ids in the same test (SPEC §10.1).
 *
 * They need to be stable and well spread, not secret: a 64-bit hash of the seed drives a
 * counter-based mixer, in plain JavaScript. (A SHA-2 per id cost every request two calls into
 * `node:crypto`, about a tenth of what serving a small JSON answer costs, and needed a JavaScript
 * SHA-2 where there is no `node:crypto`.)
 * @module
 */
const HEX = '0123456789abcdef'
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** One id format: a fixed head, then `length` characters of `alphabet`. */
interface IdFormat {
  head: string
  alphabet: string
  length: number
}

/** The formats, as seen in the recordings under `test/recordings/`. */
const formats = {
  /** OpenAI Chat completion: `chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0`. */
  'chat-completion': { head: 'chatcmpl-', alphabet: ALNUM, length: 29 },
  /** OpenAI tool call: `call_Kp2Mx8Lq0rT5vW9yZ3bD7fGh`. */
  'openai-call': { head: 'call_', alphabet: ALNUM, length: 24 },
  /** OpenAI Responses object and its items: `resp_`, `msg_`, `fc_`, `rs_` + 50 hex digits. */
  response: { head: 'resp_', alphabet: HEX, length: 50 },
  'response-message': { head: 'msg_', alphabet: HEX, length: 50 },
  'function-call-item': { head: 'fc_', alphabet: HEX, length: 50 },
  'reasoning-item': { head: 'rs_', alphabet: HEX, length: 50 },
  /** Anthropic message: `msg_01QC4g3HwBThD4BaNtBckFDJ`. */
  'anthropic-message': { head: 'msg_01', alphabet: BASE58, length: 22 },
  /** Anthropic tool use: `toolu_01QE1WLsSVp5hy5Q3GmGTmjP`. */
  'anthropic-tool-use': { head: 'toolu_01', alphabet: BASE58, length: 22 },
  // Bedrock Converse `toolUseId`.
  'bedrock-tool-use': { head: 'tooluse_', alphabet: ALNUM, length: 22 },
  /** OpenAI `x-request-id`: `req_` + 32 hex digits. */
  'openai-request': { head: 'req_', alphabet: HEX, length: 32 },
  /** Anthropic `request-id` and error `request_id`: `req_011Cd65WVh8Zrvno3NunpJ73`. */
  'anthropic-request': { head: 'req_011C', alphabet: BASE58, length: 20 },
} as const satisfies Record<string, IdFormat>

/** The kinds of id the fake issues. */
export type WireIdKind = keyof typeof formats

/**
 * The id of `kind` for `seed`: the same seed always gives the same id, and different seeds
 * (in practice) different ones.
 * @example
 * wireId('chat-completion', 'fake1_000001') // 'chatcmpl-…' (29 letters and digits)
 */
export function wireId(kind: WireIdKind, seed: string): string {
  const { head, alphabet, length } = formats[kind]
  // Two 32-bit lanes of FNV-style hashing, with different primes, make a 64-bit seed from
  // `${kind}\0${seed}` (hashed in place: every request makes an id or two).
  let low = 0x811c9dc5
  let high = 0x9e3779b9 ^ (kind.length + 1 + seed.length)
  for (let i = 0; i <= kind.length + seed.length; i++) {
    const code = i < kind.length ? kind.charCodeAt(i) : i === kind.length ? 0 : seed.charCodeAt(i - kind.length - 1)
    low = Math.imul(low ^ code, 0x01000193)
    high = Math.imul(high ^ code, 0x5bd1e995)
    high ^= high >>> 15
  }
  low = avalanche(low)
  high = avalanche(high ^ low)
  const codes = (scratch[length] ??= new Array<number>(length).fill(0))
  for (let i = 0; i < length; i++) {
    low = (low + 0x9e3779b9) | 0
    codes[i] = alphabet.charCodeAt(avalanche(low ^ high) % alphabet.length)
  }
  return head + String.fromCharCode(...codes)
}

/** One list of character codes per id length, filled anew for each id (ids are made one at a time). */
const scratch: number[][] = []

/** Murmur3's finaliser: every input bit flips about half the output bits. Unsigned result. */
function avalanche(value: number): number {
  let h = value ^ (value >>> 16)
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/**
 * Whether `id` is one a double generated for a tool call a script gave no id
 * (`call_<call>_<n>`, see `completeReply`): such ids take the carrying dialect's format on the
 * wire, while an id the script chose is kept as it is.
 */
export function isGeneratedToolCallId(id: string): boolean {
  return /^call_\d+_\d+$/.test(id)
}
