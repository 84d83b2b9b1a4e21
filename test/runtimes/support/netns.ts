/**
 * Runs agent runtimes in a network namespace that holds only loopback (SPEC §17), while their
 * FakeProxy stays in the test process. One namespace serves a whole test file: `netns-exec.sh
 * --host` makes it and starts `netns-relay.mjs` there, which listens on the test servers' own
 * ports inside it and relays each connection through a Unix socket (a file-system path reaches
 * across namespaces) to the bridge opened here. Each run then only enters that namespace
 * (`netns-exec.sh cmd…`, nsenter), so starting a run costs no relay process of its own. A runtime
 * is given the lane's usual URL, and a request to anywhere else fails at once (no route),
 * instead of leaving the machine.
 * @module
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { splice } from './splice.mjs'

/** The wrapper that makes the namespace and runs commands in it. */
export const NETNS_EXEC = fileURLToPath(new URL('./netns-exec.sh', import.meta.url))

/** Why a loopback-only namespace cannot be made and entered here, or `undefined` when it can. */
export function netnsUnavailable(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces need Linux (this is ${process.platform})`
  try {
    execFileSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up && nsenter --version'], { stdio: 'pipe', timeout: 5_000 })
    return undefined
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message
    return `\`unshare -n\` with \`ip link set lo up\` and \`nsenter\` failed: ${detail}`
  }
}

/**
 * When process `pid` started (field 22 of its /proc stat, in clock ticks since boot): with the
 * pid, it names the relay so that netns-exec.sh never enters the namespace of a process that
 * took a dead relay's pid. The relay has said `ready`, so it is already in its own namespace.
 */
function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[19]!
}

/** A test file's namespace: the relay process in it, and the bridge to the servers here. */
class NetnsHost {
  readonly #relay: ChildProcessWithoutNullStreams
  readonly #dir: string
  readonly #servers = new Map<number, Server>()
  readonly #sockets = new Set<Socket>()
  readonly #pending = new Map<number, { resolve(): void; reject(error: Error): void }>()
  readonly #listening = new Map<number, Promise<void>>()
  /** Variables netns-exec.sh reads to enter the namespace: give them to the runtime's environment. */
  readonly env: Record<string, string>

  private constructor(relay: ChildProcessWithoutNullStreams, dir: string, started: string) {
    this.#relay = relay
    this.#dir = dir
    this.env = { AGENT_DOUBLES_NETNS_PID: String(relay.pid), AGENT_DOUBLES_NETNS_START: started }
    createInterface({ input: relay.stdout }).on('line', (line) => {
      const [verb, port, ...why] = line.split(' ')
      const waiter = this.#pending.get(Number(port))
      this.#pending.delete(Number(port))
      if (verb === 'listening') waiter?.resolve()
      else waiter?.reject(new Error(`netns relay cannot listen on ${port}: ${why.join(' ')}`))
    })
  }

  /** Makes the namespace and starts its relay. */
  static async open(): Promise<NetnsHost> {
    const relay = spawn(NETNS_EXEC, ['--host'], { env: { ...process.env, AGENT_DOUBLES_NETNS_NODE: process.execPath }, stdio: ['pipe', 'pipe', 'pipe'] })
    let stderr = ''
    relay.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const ready = await new Promise<boolean>((resolve) => {
      relay.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().startsWith('ready')))
      relay.once('exit', () => resolve(false))
      relay.once('error', () => resolve(false))
    })
    if (!ready) {
      relay.kill('SIGKILL')
      throw new Error(`the netns relay did not start: ${stderr.slice(-500)}`)
    }
    const host = new NetnsHost(relay, mkdtempSync(join(tmpdir(), 'agent-doubles-netns-')), startTime(relay.pid!))
    // Neither the relay nor its pipes keep the test process alive (the relay ends with its stdin).
    relay.unref()
    for (const stream of [relay.stdin, relay.stdout, relay.stderr] as unknown as Array<{ unref?(): void }>) stream.unref?.()
    return host
  }

  /** Makes each port listen in the namespace, relayed to the same port of 127.0.0.1 here (once per port). */
  async reach(ports: readonly number[]): Promise<void> {
    await Promise.all(ports.map((port) => this.#listening.get(port) ?? this.#listen(port)))
  }

  #listen(port: number): Promise<void> {
    const path = join(this.#dir, `${port}.sock`)
    const listening = (async () => {
      const server = createServer((inner) => {
        // No Nagle on the hop to the server: a runtime's small WebSocket frames go at once.
        const outer = connect({ port, host: '127.0.0.1', noDelay: true })
        tracer?.(port, outer)
        splice(inner, outer, this.#sockets)
      })
      server.unref()
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve))
      this.#servers.set(port, server)
      await new Promise<void>((resolve, reject) => {
        this.#pending.set(port, { resolve, reject })
        this.#relay.stdin.write(`listen ${port} ${path}\n`)
      })
    })()
    this.#listening.set(port, listening)
    listening.catch(() => this.#listening.delete(port))
    return listening
  }

  /** Ends the relay (and with it the namespace) and the bridge, every relayed connection included. */
  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => (this.#relay.exitCode !== null ? resolve() : this.#relay.once('exit', () => resolve())))
    this.#relay.stdin.end()
    const closed = [...this.#servers.values()].map((server) => new Promise<void>((resolve) => server.close(() => resolve())))
    for (const socket of this.#sockets) socket.destroy()
    await Promise.all([...closed, exited])
    rmSync(this.#dir, { recursive: true, force: true })
  }
}

let shared: Promise<NetnsHost> | undefined
let tracer: ((port: number, toServer: Socket) => void) | undefined

/** Watches each relayed connection (its socket to the server) as it opens: trace-run.ts's timeline. */
export function traceConnections(watch: ((port: number, toServer: Socket) => void) | undefined): void {
  tracer = watch
}

/** The bridge from the namespace to servers (a FakeProxy, a FakeMcpServer) listening in this process's namespace. */
export class NetnsBridge {
  /** Variables netns-exec.sh reads: give them to the runtime's environment. */
  readonly env: Record<string, string>

  private constructor(env: Record<string, string>) {
    this.env = env
  }

  /** Bridges the servers at `urls` (`http://127.0.0.1:<port>…`), each reached on its own port in this file's namespace. */
  static async open(...urls: string[]): Promise<NetnsBridge> {
    shared ??= NetnsHost.open()
    const host = await shared
    await host.reach([...new Set(urls.map((url) => Number(new URL(url).port)))])
    return new NetnsBridge(host.env)
  }

  /** A run is done with the bridge; the namespace stays for the file's next run ({@link closeNetns} ends it). */
  async close(): Promise<void> {}
}

/** Ends this file's namespace and its bridge (after its last run). */
export async function closeNetns(): Promise<void> {
  const host = shared
  shared = undefined
  await (await host?.catch(() => undefined))?.close()
}
