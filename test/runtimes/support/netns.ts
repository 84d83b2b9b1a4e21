/**
 * Runs an agent runtime in a network namespace that holds only loopback (SPEC §17), while its
 * FakeProxy stays in the test process: `netns-exec.sh` makes the namespace and starts
 * `netns-relay.mjs` there, which listens on the FakeProxy's own port inside it and relays each
 * connection through a Unix socket (a file-system path reaches across namespaces) to the bridge
 * opened here. So the runtime is given the lane's usual URL, and a request to anywhere else
 * fails at once (no route), instead of leaving the machine.
 * @module
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { splice } from './splice.mjs'

/** The wrapper that runs a command in the namespace. */
export const NETNS_EXEC = fileURLToPath(new URL('./netns-exec.sh', import.meta.url))

/** Why a loopback-only namespace cannot be made here, or `undefined` when it can. */
export function netnsUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces need Linux (this is ${process.platform})`
  try {
    execFileSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'pipe', timeout: 5_000 })
    return undefined
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message
    return `\`unshare -n\` with \`ip link set lo up\` failed: ${detail}`
  }
}

/** The bridge from a namespace's relay to servers (a FakeProxy, a FakeMcpServer) listening in this process's namespace. */
export class NetnsBridge {
  readonly #servers: Server[]
  readonly #dir: string
  readonly #sockets: Set<Socket>
  /** Variables the wrapper and relay read: give them to the runtime's environment. */
  readonly env: Record<string, string>

  private constructor(servers: Server[], sockets: Set<Socket>, dir: string, map: string) {
    this.#servers = servers
    this.#sockets = sockets
    this.#dir = dir
    this.env = { AGENT_DOUBLES_NETNS_MAP: map, AGENT_DOUBLES_NETNS_NODE: process.execPath }
  }

  /** Opens a bridge to the servers at `urls` (`http://127.0.0.1:<port>…`), each reached on its own port in the namespace. */
  static async open(...urls: string[]): Promise<NetnsBridge> {
    const ports = [...new Set(urls.map((url) => Number(new URL(url).port)))]
    const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-netns-'))
    const sockets = new Set<Socket>()
    const servers = await Promise.all(ports.map((port) => NetnsBridge.#listen(port, join(dir, `${port}.sock`), sockets)))
    return new NetnsBridge(servers, sockets, dir, ports.map((port) => `${port}=${join(dir, `${port}.sock`)}`).join(';'))
  }

  static async #listen(port: number, path: string, sockets: Set<Socket>): Promise<Server> {
    const server = createServer((inner) => splice(inner, connect(port, '127.0.0.1'), sockets))
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve))
    return server
  }

  /** Closes the bridge, every relayed connection included. */
  async close(): Promise<void> {
    const closed = this.#servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())))
    for (const socket of this.#sockets) socket.destroy()
    await Promise.all(closed)
    rmSync(this.#dir, { recursive: true, force: true })
  }
}
