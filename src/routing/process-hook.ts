/**
 * A hook on a module the whole process shares (`node:http`, `node:http2`), while guard states
 * are one per realm (Jest gives each test file its own). The hook is kept on the module under a
 * `Symbol.for` key with a stack of the realms' `decide` functions; the latest decides, and the
 * last one out takes the hook off.
 * @module
 */
import type { Decide } from './decision.js'

/** What a process-wide hook keeps: the realms' `decide` functions, latest last. */
export interface StackedHook {
  deciders: Decide[]
}

/** How to put a hook on its module and take it off again. */
export interface HookPlacement<H extends StackedHook> {
  create(): H
  put(hook: H): void
  takeOff(hook: H): void
}

/**
 * Returns the function that joins `decide` to the hook on `owner` (putting the hook on first
 * when there is none) until the function it returns runs.
 */
export function stackedHook<H extends StackedHook>(owner: object, key: symbol, placement: HookPlacement<H>): (decide: Decide) => () => void {
  const holder = owner as Record<symbol, H | undefined>
  return (decide) => {
    let hook = holder[key]
    if (!hook) {
      hook = placement.create()
      holder[key] = hook
      placement.put(hook)
    }
    const current = hook
    current.deciders.push(decide)
    let joined = true
    return () => {
      if (!joined) return
      joined = false
      current.deciders.splice(current.deciders.lastIndexOf(decide), 1)
      if (current.deciders.length > 0) return
      if (holder[key] === current) delete holder[key]
      placement.takeOff(current)
    }
  }
}
