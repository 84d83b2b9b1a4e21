/**
 * The `agent-doubles` command line: `--help`, `--version` and the `serve` command. Kept apart
 * from `src/cli.ts` (which only wires it to the process) so tests can run it in-process.
 * @module
 */
import { PREFIX } from '../internal/describe.js'
import type { FakeProxy } from '../server/fake-proxy.js'
import { mainHelp } from './help.js'
import { serve } from './serve.js'

/** Where the command writes. */
export interface CliOutput {
  out(text: string): void
  err(text: string): void
}

/** What a run ended with: an exit code, or a proxy serving until the process is told to stop. */
export type CliOutcome = { code: number } | { proxy: FakeProxy }

/**
 * Runs the command line `argv` (without `node` and the script). Bad arguments print a clear
 * message and the usage to `err` and give exit code 2.
 */
export async function runCli(argv: readonly string[], io: CliOutput, version: () => string): Promise<CliOutcome> {
  const [first, ...rest] = argv
  if (first === '-h' || first === '--help') {
    io.out(mainHelp.trimEnd())
    return { code: 0 }
  }
  if (first === '-v' || first === '--version') {
    io.out(version())
    return { code: 0 }
  }
  if (first === 'serve') {
    try {
      const proxy = await serve(['serve', ...rest], io.out)
      return proxy ? { proxy } : { code: 0 }
    } catch (error) {
      io.err(error instanceof Error ? error.message : String(error))
      return { code: 2 }
    }
  }
  const problem = first === undefined
    ? 'no command given'
    : first.startsWith('-') ? `unknown option ${first}` : `unknown command ${JSON.stringify(first)}`
  io.err(`${PREFIX} ${problem}\n\n${mainHelp.trimEnd()}`)
  return { code: 2 }
}
