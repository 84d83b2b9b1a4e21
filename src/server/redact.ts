/**
 * Credentials out of what the control API shows (SPEC §24): `GET /_agent-doubles/requests`
 * and `refusals` answer anyone on the machine, so the keys a client sent are masked there, as
 * transcripts never hold them. The records a test reads in-process keep them (`proxy.requests`):
 * the test sent them and may assert on them.
 * @module
 */

/** Headers that carry a credential whole: masked to `[redacted]`. */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'api-key',
  'x-api-key',
  'x-goog-api-key',
  'cookie',
  'set-cookie',
  'x-amz-security-token',
])

/** The placeholder a masked credential reads as. */
export const REDACTED = '[redacted]'

/**
 * `headers` with credentials masked: the secret headers whole, and in a SigV4 `authorization`
 * the access key id (`Credential=AKIA…/…`) and `Signature=` masked as well (the header is
 * masked whole anyway; kept apart so a header that merely mentions SigV4 is masked too).
 * @example
 * redactHeaders({ authorization: 'Bearer sk-1', 'content-type': 'application/json' })
 * // { authorization: '[redacted]', 'content-type': 'application/json' }
 */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (SECRET_HEADERS.has(lower)) out[name] = REDACTED
    else out[name] = typeof value === 'string' ? redactSigV4(value) : value
  }
  return out
}

/** `Credential=AKIA…/date/region/service/aws4_request` and `Signature=…` masked in any text. */
function redactSigV4(text: string): string {
  if (!/Credential=|Signature=/i.test(text)) return text
  return text.replace(/(Credential=)[^,\s]*/gi, `$1${REDACTED}`).replace(/(Signature=)[^,\s]*/gi, `$1${REDACTED}`)
}
