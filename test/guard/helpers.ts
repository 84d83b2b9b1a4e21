// A stand-in for the real fetch under the guard: it records every call and never lets one leave
// the machine (anything but 127.0.0.1 rejects), so a guard bug cannot reach a real provider.
export interface SafetyNet {
  /** `METHOD URL` of every call that reached the "real" fetch. */
  calls: string[]
  /** The stand-in, set as `globalThis.fetch` by `installSafetyNet`. */
  fetch: typeof globalThis.fetch
  /** Puts the real fetch back. */
  restore(): void
}

export function installSafetyNet(answer?: (url: URL, request: Request) => Response | Promise<Response>): SafetyNet {
  const real = globalThis.fetch
  const calls: string[] = []
  const net: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    calls.push(`${request.method} ${url.href}`)
    if (answer) return answer(url, request)
    if (url.hostname !== '127.0.0.1') throw new Error(`safety net: the test tried to reach ${url.href}`)
    return real(input, init)
  }
  globalThis.fetch = net
  return {
    calls,
    fetch: net,
    restore: () => {
      globalThis.fetch = real
    },
  }
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
