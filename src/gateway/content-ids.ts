/**
 * Stable stand-ins for the proxy's content IDs. The fake computes no real CIDs; it derives
 * look-alikes from the content, so the same content always gets the same ID and other
 * content another one (SPEC §5.5).
 * @module
 */
import { toHex } from '../internal/bytes.js'
import { sha256 } from '../internal/digest.js'

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/** RFC 4648 base32, lower case, no padding: the alphabet of CIDv1 strings. */
function base32(bytes: Uint8Array): string {
  let out = ''
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
    buffer &= (1 << bits) - 1
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31]
  return out
}

/** JSON with object keys sorted, so equal data always serialises the same way. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item
    return Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  })
}

/**
 * The `bagaachrafake…` stand-in for a set of files (a skill's, or memory files): derived from
 * the paths and texts only, in a collection CID's form.
 * @example
 * filesCid({ 'SKILL.md': '# Search' }) // 'bagaachrafake…'
 */
export function filesCid(files: Readonly<Record<string, string>>): string {
  return `bagaachrafake${base32(sha256(canonicalJson(files))).slice(0, 46)}`
}

/** The `fake-…` stand-in for a normalised agent definition. */
export function definitionCid(definition: unknown): string {
  return `fake-${toHex(sha256(canonicalJson(definition))).slice(0, 32)}`
}
