#!/usr/bin/env node
/**
 * The `agent-doubles` command. `agent-doubles serve …` runs a FakeProxy in the foreground
 * until SIGINT or SIGTERM.
 * @module
 */
import type { FakeProxy } from './proxy/fake-proxy.js'
import { serve } from './cli/serve.js'
import { runMcpCommand } from './cli/mcp.js'

async function main(): Promise<void> {
  if (process.argv[2] === 'mcp') return runMcpCommand(process.argv.slice(2))
  let proxy: FakeProxy
  try {
    proxy = await serve(process.argv.slice(2))
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exitCode = 2
    return
  }
  // Once closed, nothing holds the event loop and the process exits on its own.
  const stop = () => void proxy.close()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

void main()
