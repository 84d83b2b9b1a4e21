#!/usr/bin/env node
/**
 * The `agent-doubles` command: `--help`, `--version`, `serve …` (a FakeProxy in the foreground)
 * and `mcp …` (a FakeMcpServer over stdio). A running command stops on SIGINT or SIGTERM, when
 * stdin ends (`mcp`), and when the process that started it goes away.
 * @module
 */
import { readFileSync } from 'node:fs'
import { runCli } from './cli/main.js'
import { watchParent } from './cli/parent-watch.js'

/** The version in the package.json one directory up (from `dist/cli.js` and `src/cli.ts` alike). */
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
}

async function main(): Promise<void> {
  const outcome = await runCli(process.argv.slice(2), {
    out: (text) => console.log(text),
    err: (text) => console.error(text),
  }, version)
  if ('code' in outcome) {
    process.exitCode = outcome.code
    return
  }
  // Once closed, nothing holds the event loop and the process exits on its own.
  const close = 'proxy' in outcome
    ? () => outcome.proxy.close()
    : () => outcome.mcp.close().then(() => void process.stdin.destroy())
  let closing: Promise<void> | undefined
  const stop = () => (closing ??= close())
  process.once('SIGINT', () => void stop())
  process.once('SIGTERM', () => void stop())
  if ('mcp' in outcome) process.stdin.once('end', () => void stop())
  // The harness that started us is gone: nobody will send a signal, so close and leave.
  // Exit explicitly, since an IPC channel or a half-open stdin could keep the loop alive.
  process.channel?.unref()
  watchParent((reason) => {
    // Our stdout and stderr may be pipes whose reader is gone too: a failed write is no news.
    process.stdout.on('error', () => {})
    process.stderr.on('error', () => {})
    console.error(`[agent-doubles] ${process.argv[2]}: ${reason}; closing`)
    void stop().finally(() => process.exit())
  })
}

void main()
