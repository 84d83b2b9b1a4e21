import type http from 'node:http'
import type { LookupFunction } from 'node:net'

export interface Sent {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

type RequestFn = (...args: never[]) => http.ClientRequest

/** Sends one request with a `node:http`-style function (`request` or `get`) and reads the answer whole. */
export function send(fn: RequestFn, url: string | URL | http.RequestOptions, options: http.RequestOptions | undefined, body?: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    }
    const args = typeof url === 'object' && !(url instanceof URL) ? [url, onResponse] : [url, options ?? {}, onResponse]
    const req = (fn as unknown as (...a: unknown[]) => http.ClientRequest)(...args)
    req.on('error', reject)
    if (!req.writableEnded) req.end(body)
  })
}

/**
 * A `lookup` that resolves every name to 127.0.0.1 and notes it: a request that got past the
 * guard would stay on this machine, and `lookups` shows it tried.
 */
export function localLookup(lookups: string[]): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    lookups.push(hostname)
    if (options?.all) callback(null, [{ address: '127.0.0.1', family: 4 }])
    else callback(null, '127.0.0.1', 4)
  }) as unknown as LookupFunction
}
