/**
 * `fakeProxy.env` (SPEC §17): the environment variables that point every supported client at
 * one proxy or lane, with placeholder keys, for a runtime spawned in a process of its own
 * (`spawn(cmd, { env: { ...process.env, ...fakeProxy.env } })`).
 * @module
 */
import { providers } from '../wire/dialects.js'

export { PLACEHOLDER_KEY } from '../wire/dialect.js'

/**
 * The variables for the proxy or lane at `url` (`http://127.0.0.1:<port>` or its `/~<id>`).
 * Each name is one a client of SPEC §5.1 or §12 reads (checked in the clients' sources):
 * base URLs end where each client appends its own path. Each provider declares its own
 * (src/wire/<provider>/provider.ts).
 */
export function clientEnv(url: string): Record<string, string> {
  return Object.assign({}, ...providers.map((provider) => provider.env?.(url) ?? {}))
}
