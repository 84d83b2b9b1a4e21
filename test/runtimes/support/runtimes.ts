/**
 * The three agent runtimes of SPEC §17, each run for real against a lane: the Claude Agent SDK
 * (which runs Claude Code), the Codex SDK (which runs the `codex` binary) and Gemini CLI. They
 * are installed, pinned, in test/matrix/runtimes (`npm install --prefix test/matrix/runtimes`).
 * Each run gets a fresh home directory (no user config, no history) with telemetry, error
 * reporting and update checks off, and runs in a loopback-only network namespace when the
 * machine allows it ({@link NetnsBridge}).
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { NETNS_EXEC, NetnsBridge, netnsUnavailable } from './netns.js'

/** Where the runtimes are installed. */
export const RUNTIMES_DIR = fileURLToPath(new URL('../../matrix/runtimes/', import.meta.url))
const requireRuntime = createRequire(join(RUNTIMES_DIR, 'package.json'))

/** The ESM entry of a package installed in test/matrix/runtimes (its `exports` `import` condition). */
function esmEntry(name: string): string {
  const root = join(RUNTIMES_DIR, 'node_modules', name)
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main?: string; exports?: unknown }
  let entry: unknown = manifest.exports
  if (entry && typeof entry === 'object' && '.' in entry) entry = (entry as Record<string, unknown>)['.']
  while (entry && typeof entry === 'object') {
    const conditions = entry as Record<string, unknown>
    entry = conditions.import ?? conditions.node ?? conditions.default
  }
  return join(root, typeof entry === 'string' ? entry : (manifest.main ?? 'index.js'))
}

/** A runtime's entry, or why it cannot run here. */
export type Located = { ok: true; path: string } | { ok: false; reason: string }

function locate(what: string, find: () => string): Located {
  try {
    const path = find()
    if (!existsSync(path)) return { ok: false, reason: `${what} is missing at ${path}` }
    return { ok: true, path }
  } catch (error) {
    return { ok: false, reason: `${what} is not installed (npm install --prefix test/matrix/runtimes): ${(error as Error).message.split('\n')[0]}` }
  }
}

/** The Claude Agent SDK's module, and the Claude Code binary it bundles. */
export const claude = {
  sdk: locate('@anthropic-ai/claude-agent-sdk', () => esmEntry('@anthropic-ai/claude-agent-sdk')),
  binary: locate('Claude Code (@anthropic-ai/claude-agent-sdk-linux-x64)', () =>
    join(dirname(requireRuntime.resolve('@anthropic-ai/claude-agent-sdk-linux-x64/package.json')), 'claude'),
  ),
}

/** The Codex SDK's module, and the `codex` binary of its platform package. */
export const codex = {
  sdk: locate('@openai/codex-sdk', () => esmEntry('@openai/codex-sdk')),
  binary: locate('the codex binary (@openai/codex-linux-x64)', () =>
    join(dirname(requireRuntime.resolve('@openai/codex-linux-x64/package.json')), 'vendor/x86_64-unknown-linux-musl/bin/codex'),
  ),
}

/** Gemini CLI's bundle (run with this Node). */
export const gemini = {
  cli: locate('@google/gemini-cli', () => join(dirname(requireRuntime.resolve('@google/gemini-cli/package.json')), 'bundle/gemini.js')),
}

/** How runs are isolated on this machine: a reason when no namespace can be made (runs go on with telemetry off). */
export const netnsReason = netnsUnavailable()

/** Loads a runtime's module from test/matrix/runtimes. */
export async function load<T>(located: Located): Promise<T> {
  if (!located.ok) throw new Error(located.reason)
  return (await import(pathToFileURL(located.path).href)) as T
}

/** A fresh directory for one run, removed by `dispose()`. */
export function scratch(prefix: string): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), `agent-doubles-${prefix}-`))
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Variables that keep each runtime from reaching anything but the lane (its config dirs are made here). */
export function quietEnv(home: string): Record<string, string> {
  for (const dir of ['.config', '.cache', '.claude', '.codex']) mkdirSync(join(home, dir), { recursive: true })
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    // Claude Code
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    // Runs as root here: Claude Code allows skipping permission prompts only in a sandbox.
    IS_SANDBOX: '1',
    // Codex
    CODEX_HOME: join(home, '.codex'),
    // Gemini CLI: no relaunch of itself with a bigger heap, no update check, no telemetry
    // (settings.json below turns off the rest).
    GEMINI_CLI_NO_RELAUNCH: 'true',
    GEMINI_TELEMETRY_ENABLED: 'false',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    NO_UPDATE_NOTIFIER: '1',
    // Neither colour nor a TTY's prompts in the output the tests read.
    NO_COLOR: '1',
    CI: '1',
  }
}

/** Gemini CLI's user settings: telemetry, usage statistics and update checks off, API-key auth. */
export function writeGeminiSettings(home: string, extra: Record<string, unknown> = {}): void {
  mkdirSync(join(home, '.gemini'), { recursive: true })
  const settings = {
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    security: { auth: { selectedType: 'gemini-api-key' } },
    ...extra,
  }
  writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify(settings, null, 2))
}

/** What one run returned. */
export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

/**
 * Runs `command args` with `env`, in a loopback-only namespace bridged to `url` when the machine
 * allows it, and collects its output.
 */
export async function runIsolated(command: string, args: string[], options: { url: string; env: Record<string, string>; cwd: string; timeoutMs?: number }): Promise<RunResult> {
  const started = performance.now()
  const bridge = netnsReason ? undefined : await NetnsBridge.open(options.url)
  try {
    const [cmd, argv] = bridge ? [NETNS_EXEC, [command, ...args]] : [command, args]
    const child = spawn(cmd, argv, { cwd: options.cwd, env: { ...options.env, ...bridge?.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    return await collect(child, options.timeoutMs ?? 60_000, started)
  } finally {
    await bridge?.close()
  }
}

function collect(child: ChildProcess, timeoutMs: number, started: number): Promise<RunResult> {
  let stdout = ''
  let stderr = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr, ms: performance.now() - started })
    })
  })
}

export { NETNS_EXEC, NetnsBridge }
