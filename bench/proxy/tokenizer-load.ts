/**
 * What loading the tokenizer costs a process (SPEC §20): every test file that sends an
 * OpenAI-model request, in a runner that isolates its files, loads `o200k_base` once. Each
 * reading is a fresh child process; the two ways take turns, and the figures are medians.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { FigureGroup } from '../run.js'
import { median } from '../rounds.js'

const run = promisify(execFile)
const script = fileURLToPath(new URL('./tokenizer-load-child.mjs', import.meta.url))

/** One reading: a fresh `node` (without the bench's TypeScript loader, whose hooks would slow the module's import) loading the tokenizer `how`. */
async function load(how: 'module' | 'agent-doubles'): Promise<number> {
  const { stdout } = await run(process.execPath, [script, how])
  return (JSON.parse(stdout) as { cpuMs: number }).cpuMs
}

export const figures: FigureGroup[] = [
  {
    title: 'loading the o200k_base tokenizer in a fresh process, then one count (CPU)',
    async measure(quick) {
      const turns = quick ? 3 : 7
      const readings = { module: [] as number[], ours: [] as number[] }
      for (let turn = 0; turn < turns; turn++) {
        // Alternating which goes first, so neither always follows the other.
        const order = turn % 2 ? (['agent-doubles', 'module'] as const) : (['module', 'agent-doubles'] as const)
        for (const how of order) {
          ;(how === 'module' ? readings.module : readings.ours).push(await load(how))
        }
      }
      const [module, ours] = [median(readings.module), median(readings.ours)]
      return [
        { name: `the package's encoding module, imported (median of ${turns})`, value: module, unit: 'ms' },
        { name: 'agent-doubles (prepareTokenCounter: the table read as JSON)', value: ours, unit: 'ms' },
        { name: 'agent-doubles ÷ the module', value: ours / module, unit: '×' },
      ]
    },
  },
]
