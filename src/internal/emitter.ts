/**
 * The few `EventEmitter` methods the proxy calls on a request and a response (`on`, `once`,
 * `off`, `emit`), without `node:events`, so the in-process request and response load anywhere.
 * @module
 */

type Listener = (...args: never[]) => void

/** A listener added by `once`: removed before it runs, and found by `off` through `original`. */
type OnceWrapper = Listener & { original: Listener }

/** Listeners by event name, called in the order they were added. */
export class Emitter {
  #listeners = new Map<string | symbol, Listener[]>()

  on(name: string | symbol, listener: Listener): this {
    const list = this.#listeners.get(name)
    if (list) list.push(listener)
    else this.#listeners.set(name, [listener])
    return this
  }

  once(name: string | symbol, listener: Listener): this {
    const wrapper: OnceWrapper = Object.assign(
      (...args: never[]) => {
        this.#remove(name, (item) => item === wrapper)
        listener(...args)
      },
      { original: listener },
    )
    return this.on(name, wrapper)
  }

  off(name: string | symbol, listener: Listener): this {
    this.#remove(name, (item) => item === listener || (item as Partial<OnceWrapper>).original === listener)
    return this
  }

  removeListener(name: string | symbol, listener: Listener): this {
    return this.off(name, listener)
  }

  /** Calls every listener of `name` with `args`; whether there was any. */
  emit(name: string | symbol, ...args: unknown[]): boolean {
    const list = this.#listeners.get(name)
    if (!list) return false
    // A copy: a listener may remove itself or others while the event runs.
    for (const listener of [...list]) (listener as (...args: unknown[]) => void)(...args)
    return true
  }

  listenerCount(name: string | symbol): number {
    return this.#listeners.get(name)?.length ?? 0
  }

  /** Removes the first listener of `name` that `matches`. */
  #remove(name: string | symbol, matches: (item: Listener) => boolean): void {
    const list = this.#listeners.get(name)
    if (!list) return
    const at = list.findIndex(matches)
    if (at !== -1) list.splice(at, 1)
    if (list.length === 0) this.#listeners.delete(name)
  }
}
