import { Agent, Dispatcher, MockAgent } from 'undici'

// A stand-in for the network under the guard: set as undici's global dispatcher before the guard
// wraps it, it records every request that got past the guard and never lets one leave the
// machine (anything but 127.0.0.1 is answered by `answer` or fails), so a guard bug cannot
// reach a real provider.
export interface SafetyNet {
  /** `METHOD URL` of every request that reached the network. */
  calls: string[]
  /** The stand-in dispatcher, global until `restore`. */
  dispatcher: Dispatcher
  /** Puts the dispatcher that was global back and closes the net's sockets. */
  restore(): Promise<void>
}

const KEYS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')]
type Holder = Record<symbol, Dispatcher | undefined>

export interface NetAnswer {
  status: number
  body: string
}

class NetDispatcher extends Dispatcher {
  readonly loopback = new Agent()
  readonly mock = new MockAgent()
  readonly answered = new Set<string>()

  constructor(
    readonly calls: string[],
    readonly answer: NetAnswer | undefined,
  ) {
    super()
    this.mock.disableNetConnect()
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const url = new URL(`${String(options.origin)}${options.path}`)
    this.calls.push(`${options.method} ${url.href}`)
    if (url.hostname === '127.0.0.1') return this.loopback.dispatch(options, handler)
    if (this.answer && !this.answered.has(url.origin)) {
      this.answered.add(url.origin)
      const { status, body } = this.answer
      this.mock.get(url.origin).intercept({ path: () => true, method: () => true }).reply(status, body, { headers: { 'content-type': 'application/json' } }).persist()
    }
    return this.mock.dispatch(options, handler)
  }

  override close(): Promise<void> {
    return Promise.all([this.loopback.close(), this.mock.close()]).then(() => undefined)
  }

  override destroy(): Promise<void> {
    return Promise.all([this.loopback.destroy(), this.mock.close()]).then(() => undefined)
  }
}

export function installSafetyNet(answer?: NetAnswer): SafetyNet {
  const holder = globalThis as unknown as Holder
  const saved = KEYS.map((key) => holder[key])
  const calls: string[] = []
  const net = new NetDispatcher(calls, answer)
  for (const key of KEYS) holder[key] = net
  return {
    calls,
    dispatcher: net,
    restore: async () => {
      KEYS.forEach((key, index) => {
        holder[key] = saved[index]
      })
      await net.destroy()
    },
  }
}

/** The global dispatcher now (what Node's fetch runs on). */
export function globalDispatcher(): unknown {
  return (globalThis as unknown as Holder)[KEYS[0] as symbol]
}

const clientEnv = ['OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL'] as const

/** Unsets the SDKs' base-URL variables so clients use their default (real) URLs; returns the undo. */
export function useDefaultBaseUrls(): () => void {
  const saved = clientEnv.map((name) => [name, process.env[name]] as const)
  for (const name of clientEnv) delete process.env[name]
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  }
}

/** Runs `build` with the SDKs' base-URL variables unset, putting them back before returning. */
export function withDefaultBaseUrls<T>(build: () => T): T {
  const restore = useDefaultBaseUrls()
  try {
    return build()
  } finally {
    restore()
  }
}
