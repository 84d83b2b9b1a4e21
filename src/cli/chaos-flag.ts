/**
 * `serve --chaos seed:rate[:kinds]` (SPEC §19): seeded chaos from the command line, e.g.
 * `--chaos 42:0.2` or `--chaos 42:0.2:invalid_tool_args,rate_limit,disconnect`.
 * @module
 */
import { chaosKinds, type ChaosKind, type ChaosOptions } from '../server/chaos.js'

/**
 * The chaos options `--chaos` gives; checked in full when the proxy is made.
 * @throws {TypeError} (through `fail`) the value is not `seed:rate[:kinds]`.
 */
export function parseChaosFlag(value: string, fail: (message: string) => Error): ChaosOptions {
  const [seedText, rateText, kindsText, ...rest] = value.split(':')
  const form = `--chaos must be seed:rate[:kinds] (an integer seed, a rate from 0 to 1, kinds among ${chaosKinds.join(',')}), got ${JSON.stringify(value)}`
  if (rest.length > 0 || seedText === undefined || rateText === undefined || !/^-?\d+$/.test(seedText)) throw fail(form)
  const rate = Number(rateText)
  if (rateText.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw fail(form)
  const options: ChaosOptions = { seed: Number(seedText), rate }
  if (kindsText !== undefined) {
    const kinds = kindsText.split(',').map((kind) => kind.trim()).filter(Boolean)
    const unknown = kinds.find((kind) => !(chaosKinds as readonly string[]).includes(kind))
    if (kinds.length === 0 || unknown !== undefined) throw fail(`--chaos has an unknown kind ${JSON.stringify(unknown ?? '')}; valid kinds: ${chaosKinds.join(', ')}`)
    options.kinds = kinds as ChaosKind[]
  }
  return options
}
