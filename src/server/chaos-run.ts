/**
 * The run's chaos seed (SPEC §19), drawn once in the runner's main process by the global setups
 * (`agent-doubles/vitest/global-setup`, `agent-doubles/jest/global-setup`), printed there once,
 * and handed to every worker through the environment — so a run with many workers prints one
 * line, and each worker's chaos uses the same seed.
 * @module
 */
import { PREFIX } from '../internal/describe.js'

/** Where the run's seed travels from the main process to the workers. @internal */
export const RUN_SEED_ENV = 'AGENT_DOUBLES_RUN_SEED'
/** The variable that replays a run's faults. */
export const CHAOS_SEED_ENV = 'AGENT_DOUBLES_CHAOS_SEED'

/** The line that names the run's seed. @internal */
export function seedLine(seed: number): string {
  return `${PREFIX} chaos seed ${seed} (replay with ${CHAOS_SEED_ENV}=${seed})`
}

/**
 * Starts a run's chaos, in the runner's main process: draws the run's seed, puts it where the
 * workers read it, and prints it — once, however many projects call it. Returns the seed, or
 * `undefined` when `AGENT_DOUBLES_CHAOS_SEED` replays a seed already (nothing is printed then).
 * @example
 * // vitest.config.ts: test: { globalSetup: ['agent-doubles/vitest/global-setup'] }
 */
export function startChaosRun(env: Record<string, string | undefined> = globalThis.process?.env ?? {}): number | undefined {
  if (env[CHAOS_SEED_ENV]) return undefined
  const drawn = Number(env[RUN_SEED_ENV])
  if (env[RUN_SEED_ENV] && Number.isSafeInteger(drawn)) return drawn
  const seed = Math.floor(Math.random() * 4_294_967_296)
  env[RUN_SEED_ENV] = String(seed)
  console.warn(seedLine(seed))
  return seed
}

/** The seed a global setup drew for this run, if one did. @internal */
export function providedRunSeed(): number | undefined {
  const text = globalThis.process?.env?.[RUN_SEED_ENV]
  if (!text) return undefined
  const seed = Number(text)
  return Number.isSafeInteger(seed) ? seed : undefined
}
