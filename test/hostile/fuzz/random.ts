/**
 * A seeded pseudo-random source for the fuzz pass (mulberry32): the same seed sends the same
 * bodies in the same order, so a failure the pass prints can be sent again.
 */

/** Draws numbers, indexes and choices from one seed. */
export class Random {
  #state: number

  constructor(seed: number) {
    this.#state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [0, below). */
  below(below: number): number {
    return Math.floor(this.next() * below)
  }

  /** One of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]
  }

  /** `true` with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p
  }
}

/** The seed: `AGENT_DOUBLES_FUZZ_SEED` when set (to send a failing run again), else a fixed one. */
export function fuzzSeed(): number {
  const given = process.env.AGENT_DOUBLES_FUZZ_SEED
  if (given === undefined || given === '') return 0x5eed_2026
  const seed = Number(given)
  if (!Number.isSafeInteger(seed)) throw new TypeError(`AGENT_DOUBLES_FUZZ_SEED must be an integer, got ${JSON.stringify(given)}`)
  return seed
}
