/**
 * The local attacker (SPEC §24): a web page open in the developer's browser can reach a server
 * on 127.0.0.1, by a form or `fetch` (CSRF) or by a name it controls that resolves to
 * 127.0.0.1 (DNS rebinding). The control API and FakeMcpServer change state and read records,
 * so they answer only requests that a page cannot send:
 * - `Host` must be a loopback name or address (`localhost`, `127.0.0.1`, `[::1]`) or the address
 *   the request arrived on, with the listening port if a port is given — a rebound name fails;
 * - an `Origin`, when sent, must be `http://` such a host — another site's page fails (403);
 * - a mutation (`POST`, `PUT`, `PATCH`, `DELETE`) with a body must say `application/json` or
 *   `application/x-ndjson` (415): the types a page can send without a CORS preflight
 *   (`text/plain`, forms) are refused. A mutation with no body and no type (`curl -X POST`) is
 *   allowed: a page sending one cross-site also sends its `Origin`.
 * The model routes are not checked: SDKs routed by host send the provider's own `Host`.
 * @module
 */
import type { IncomingMessage } from 'node:http'

/** Why a request is refused, as a status and a message; `undefined` when it may be served. */
export interface LocalOnlyRefusal {
  readonly status: 403 | 415
  readonly message: string
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const MUTATION_TYPE = /^application\/(?:(?:[\w.+-]+\+)?json|(?:x-)?ndjson)\s*(?:;|$)/i
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Whether `req` could only have come from a page the developer did not mean to let in; the
 * refusal to answer with, or `undefined`. A request with no socket (the in-process transport)
 * is not checked: nothing outside the process can send one.
 */
export function refuseNonLocal(req: IncomingMessage): LocalOnlyRefusal | undefined {
  const socket = req.socket as IncomingMessage['socket'] | undefined
  if (!socket || typeof socket.localPort !== 'number') return undefined
  const allowed = allowedHosts(socket.localAddress)
  const port = socket.localPort
  const host = req.headers.host
  if (host !== undefined && !isAllowedHost(host, allowed, port)) {
    return { status: 403, message: `Host ${JSON.stringify(host)} is not this server's loopback address; only localhost, 127.0.0.1 or [::1] on port ${port} may drive it (DNS rebinding)` }
  }
  const origin = req.headers.origin
  if (origin !== undefined && !isAllowedOrigin(origin, allowed, port)) {
    return { status: 403, message: `Origin ${JSON.stringify(origin)} may not drive this server; only pages on http://localhost:${port} may (cross-site request)` }
  }
  if (MUTATIONS.has((req.method ?? 'GET').toUpperCase())) {
    const type = req.headers['content-type']
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')
    if (type === undefined ? hasBody : !MUTATION_TYPE.test(type)) {
      return { status: 415, message: `content-type must be application/json or application/x-ndjson, got ${type === undefined ? 'none' : JSON.stringify(type)}` }
    }
  }
  return undefined
}

/** The loopback names, and the address this connection arrived on as a `Host` spells it. */
function allowedHosts(localAddress: string | undefined): Set<string> {
  const allowed = new Set(LOOPBACK_NAMES)
  if (localAddress) {
    const address = localAddress.startsWith('::ffff:') ? localAddress.slice(7) : localAddress
    allowed.add(address.includes(':') ? `[${address}]` : address)
  }
  return allowed
}

function isAllowedHost(host: string, allowed: Set<string>, port: number): boolean {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.trim().toLowerCase())
  if (!match) return false
  return allowed.has(match[1]) && (match[2] === undefined || Number(match[2]) === port)
}

function isAllowedOrigin(origin: string, allowed: Set<string>, port: number): boolean {
  const match = /^http:\/\/(.+)$/i.exec(origin.trim())
  return match !== null && isAllowedHost(match[1], allowed, port)
}
