/**
 * Masks for the values that change from run to run — ports, provider-style ids, UUIDs, ISO dates
 * and epoch timestamps — so rendered conversations compare equal across runs.
 * @module
 */
import { currentConfig } from '../config.js'

const LOOPBACK_PORT = /(?<![\w.])(127\.0\.0\.1|localhost|\[::1\]):\d{2,5}\b/g
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g
// Epoch seconds and milliseconds from 2017 to 2033: wide enough for "now", narrow enough to leave
// prices, counts and phone numbers alone.
const EPOCH = /\b1[5-9]\d{8}(?:\d{3})?\b/g
// Provider id prefixes (SPEC §10.1) followed by a body that holds at least one digit, so tool
// names such as `call_home` are not mistaken for ids.
const PROVIDER_ID = /\b(?:chatcmpl|call|toolu|srvtoolu|msg|resp|fc|rs|req|run|thread|asst|file|batch|evt|ws)[-_](?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{3,}/g

/**
 * `text` with the volatile values masked: `127.0.0.1:<port>`, `<uuid>`, `<date>`, `<timestamp>`,
 * and ids numbered by first appearance (`<id 1>`, `<id 2>`, …) so a tool call and its result
 * still visibly share one. Then the `normalize` set with `configure()`, when there is one.
 * @internal
 */
export function maskVolatile(text: string): string {
  const ids = new Map<string, number>()
  const masked = text
    .replace(LOOPBACK_PORT, (_, host: string) => `${host}:<port>`)
    .replace(UUID, '<uuid>')
    .replace(ISO_DATE, '<date>')
    .replace(PROVIDER_ID, (id) => {
      if (!ids.has(id)) ids.set(id, ids.size + 1)
      return `<id ${ids.get(id)}>`
    })
    .replace(EPOCH, '<timestamp>')
  const normalize = currentConfig().normalize
  return normalize ? normalize(masked) : masked
}
