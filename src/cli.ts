#!/usr/bin/env node
/**
 * The `agent-doubles` command: `--help`, `--version`, and `serve …`, which runs a FakeProxy in
 * the foreground until SIGINT or SIGTERM.
 * @module
 */
import { runMcpCommand } from './cli/mcp.js'
import { readFileSync } from 'node:fs'
import { runCli } from './cli/main.js'

/** The version in the package.json one directory up (from `dist/cli.js` and `src/cli.ts` alike). */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
}

async function main(): Promise<void> {
  if (process.argv[2] === 'mcp') return runMcpCommand(process.argv.slice(2))
  const outcome = await runCli(process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  }, version)
  if ('code' in outcome) {
    process.exitCode = outcome.code
    return
  }
  // Once closed, nothing holds the event loop and the process exits on its own.
  const stop = () => void outcome.proxy.close()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

void main()
