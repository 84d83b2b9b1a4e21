/**
 * `serve` and `mcp` never outlive the process that started them (SPEC §22): a harness in
 * another language that stops its `npx agent-doubles serve` with SIGTERM must not leave the
 * server running as an orphan. Each test starts a wrapper (the harness's child), which starts
 * the CLI; the wrapper is stopped, and the test checks the CLI process is gone — by pid, from
 * /proc, since it is not the test's own child. Linux, as the suite's machine.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, test } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const source = `${root}src/cli.ts`
const built = `${root}dist/cli.js`
const mcpConfig = `${root}test/mcp/fixtures/weather.mcp.json`
const slow = 120_000

/** The processes a test started, ended by pid afterwards whatever happened. */
const started = new Set<number>()
afterEach(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
  started.clear()
})

/** Whether `pid` is a live process (not gone, not a zombie waiting for a reaper). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
    return state !== 'Z' && state !== 'X'
  } catch {
    return false
  }
}

/** The command line of `pid`, arguments joined by spaces. */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
  } catch {
    return ''
  }
}

/** Whether `pid` runs node (a bin's `#!/usr/bin/env node` shows as plain `node` in its command line). */
function isNode(pid: number): boolean {
  try {
    return readlinkSync(`/proc/${pid}/exe`) === realpathSync(process.execPath)
  } catch {
    return false
  }
}

/** Every live descendant of `pid`. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number>()
  for (const entry of readdirProc()) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parents.set(entry, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {}
  }
  const found: number[] = []
  const walk = (parent: number) => {
    for (const [child, of] of parents) if (of === parent) found.push(child), walk(child)
  }
  walk(pid)
  return found
}

/** The pids in /proc (one directory per process). */
function readdirProc(): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number)
}

/** Resolves once `pid` has exited; rejects with what it still is after `limit` ms. */
async function exited(pid: number, limit = 20_000): Promise<void> {
  for (const deadline = Date.now() + limit; Date.now() < deadline; await sleep(50)) {
    if (!isRunning(pid)) return
  }
  throw new Error(`process ${pid} (${commandLine(pid)}) is still running ${limit} ms after its parent went away: an orphan`)
}

/**
 * Starts `command` as the wrapper and resolves once the CLI under it printed its first line
 * (a URL for serve) or, for mcp, once it is running; returns the wrapper and the CLI's pid.
 */
async function startWrapper(command: string, args: string[], cliMarker: string, waitForLine: boolean) {
  const wrapper = spawn(command, args, { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] })
  started.add(wrapper.pid!)
  let line = ''
  if (waitForLine) {
    const lines = createInterface({ input: wrapper.stdout! })
    ;[line] = (await once(lines, 'line')) as [string]
  }
  let cli: number | undefined
  for (const deadline = Date.now() + 60_000; cli === undefined && Date.now() < deadline; await sleep(50)) {
    cli = descendants(wrapper.pid!).find((pid) => isNode(pid) && commandLine(pid).includes(cliMarker))
  }
  if (cli === undefined) throw new Error(`no CLI process under ${command} ${args.join(' ')}`)
  started.add(cli)
  return { wrapper, cli, line }
}

/** Stops the wrapper with `signal` and waits for it (the harness reaps its own child). */
async function stopWrapper(wrapper: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const gone = once(wrapper, 'exit')
  wrapper.kill(signal)
  await gone
}

describe('serve exits when the process that started it goes away', () => {
  test('npx agent-doubles serve, the npx process stopped with SIGTERM: no orphan server', async () => {
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first (npm test does)`)
    const npx = `${root}node_modules/.bin/npx`
    const { wrapper, cli, line } = await startWrapper(existsSync(npx) ? npx : 'npx', ['--no-install', 'agent-doubles', 'serve'], 'serve', true)
    expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await (await fetch(`${line}/_agent-doubles/health`)).json()).toEqual({ ok: true })
    await stopWrapper(wrapper, 'SIGTERM')
    await exited(cli)
    await expect(fetch(`${line}/_agent-doubles/health`)).rejects.toThrow()
  }, slow)

  test('a wrapper killed outright (SIGKILL, nothing forwarded) while a shell between stays alive', async () => {
    // As `npm exec` runs a bin: wrapper → sh -c → node. SIGKILL leaves the sh running, so only
    // the watch on the grandparent can notice.
    const script = `const { spawn } = require('node:child_process');
      spawn('sh', ['-c', ${JSON.stringify(`"${process.execPath}" --import tsx "${source}" serve; echo done`)}], { stdio: 'inherit' })`
    const { wrapper, cli, line } = await startWrapper(process.execPath, ['-e', script], 'serve', true)
    const shell = descendants(wrapper.pid!).find((pid) => commandLine(pid).startsWith('sh -c'))!
    started.add(shell)
    await stopWrapper(wrapper, 'SIGKILL')
    expect(isRunning(shell)).toBe(true)
    await exited(cli)
    await expect(fetch(`${line}/_agent-doubles/health`)).rejects.toThrow()
  }, slow)
})

test('mcp exits when its parent is killed, though stdin stays open (held by a sibling)', async () => {
  // The wrapper hands its own stdin (a pipe the test keeps open) to the server, so stdin never
  // ends: only the parent watch can stop it.
  const script = `require('node:child_process').spawn(process.execPath,
    ['--import', 'tsx', ${JSON.stringify(source)}, 'mcp', '--config', ${JSON.stringify(mcpConfig)}], { stdio: 'inherit' })`
  const { wrapper, cli } = await startWrapper(process.execPath, ['-e', script], 'mcp --config', false)
  await stopWrapper(wrapper, 'SIGKILL')
  await exited(cli)
  wrapper.stdin!.end()
}, slow)
