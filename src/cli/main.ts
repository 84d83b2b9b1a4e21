/**
 * The `agent-doubles` command line: `--help`, `--version`, and the commands `serve`, `mcp` and
 * `help`. Kept apart from `src/cli.ts` (which only wires it to the process) so tests can run it
 * in-process.
 * @module
 */
import { PREFIX } from '../internal/describe.js'
import type { FakeProxy } from '../server/fake-proxy.js'
import { commands, mainHelp, mcpHelp, serveHelp, type CommandName } from './help.js'
import { serveMcpStdio, type StdioMcpServer } from './mcp.js'
import { serve } from './serve.js'

/** Where the command writes. */
export interface CliOutput {
  out(text: string): void
  err(text: string): void
}

/**
 * What a run ended with: an exit code, or something serving until the process is told to stop
 * (a proxy for `serve`, a stdio MCP server for `mcp`).
 */
export type CliOutcome = { code: number } | { proxy: FakeProxy } | { mcp: StdioMcpServer }

/** Each command's `--help` text. */
const helps: Record<CommandName, string> = { serve: serveHelp, mcp: mcpHelp, help: mainHelp }

const isCommand = (name: string | undefined): name is CommandName => name !== undefined && Object.hasOwn(commands, name)

/** Whether the arguments ask for help (before a `--` that ends the options). */
function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--')
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '-h' || arg === '--help')
}

/** A bad command line: one clear line, then the usage; exit code 2. */
function bad(io: CliOutput, problem: string, help = mainHelp): CliOutcome {
  io.err(`${PREFIX} ${problem}\n\n${help.trimEnd()}`)
  return { code: 2 }
}

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
    if (rest.length > 0) return bad(io, `--version takes no arguments, got ${JSON.stringify(rest[0])}`)
    io.out(version())
    return { code: 0 }
  }
  if (first === undefined) return bad(io, 'no command given')
  if (!isCommand(first)) {
    return bad(io, first.startsWith('-')
      ? `unknown option ${first}`
      : `unknown command ${JSON.stringify(first)} (the commands are ${Object.keys(commands).join(', ')})`)
  }
  if (first === 'help') {
    const [topic, ...extra] = rest
    if (topic === undefined || topic === '-h' || topic === '--help') {
      io.out(mainHelp.trimEnd())
      return { code: 0 }
    }
    if (!isCommand(topic)) return bad(io, `help: unknown command ${JSON.stringify(topic)}`)
    if (extra.length > 0) return bad(io, `help: unexpected argument ${JSON.stringify(extra[0])}`)
    io.out(helps[topic].trimEnd())
    return { code: 0 }
  }
  if (asksForHelp(rest)) {
    io.out(helps[first].trimEnd())
    return { code: 0 }
  }
  try {
    if (first === 'mcp') return { mcp: await serveMcpStdio([first, ...rest]) }
    const proxy = await serve([first, ...rest], io.out)
    return proxy ? { proxy } : { code: 0 }
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error))
    // A usage mistake is exit 2; a file that cannot be read or a missing peer is a failure (1).
    return { code: error instanceof TypeError ? 2 : 1 }
  }
}
