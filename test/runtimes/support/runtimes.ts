/**
 * The three agent runtimes of SPEC §17, each run for real against a lane: the Claude Agent SDK
 * (which runs Claude Code), the Codex SDK (which runs the `codex` binary) and Gemini CLI. They
 * are installed, pinned, in test/matrix/runtimes (`npm install --prefix test/matrix/runtimes`).
 * Each run gets a fresh home directory (no user config, no history) with telemetry, error
 * reporting and update checks off, and runs in a loopback-only network namespace when the
 * machine allows it ({@link NetnsBridge}).
 * @module
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { NETNS_EXEC, NetnsBridge, closeNetns, netnsUnavailable } from './netns.js'

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

/**
 * Where scratch directories go: a tmpfs (`/dev/shm`) when the machine has one. Each run starts
 * from an empty home, so a runtime creates its state there every time: Codex five SQLite
 * databases (each created with a dozen fsyncs), Claude Code its config written atomically half a
 * dozen times. On a disk those fsyncs are real waits; on a tmpfs they cost nothing.
 */
export const SCRATCH_ROOT = ((): string => {
  try {
    accessSync('/dev/shm', constants.W_OK)
    if (statSync('/dev/shm').isDirectory()) return '/dev/shm'
  } catch {}
  return tmpdir()
})()

/** A fresh directory for one run, removed by `dispose()`. */
export function scratch(prefix: string): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(SCRATCH_ROOT, `agent-doubles-${prefix}-`))
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * A directory holding an `lsb_release` that fails at once, put first on Codex's PATH. At startup
 * Codex asks for the OS name twice (the Rust `os_info` crate), and each time runs `lsb_release
 * -a` before it reads /etc/os-release; on Debian that is a shell script that starts six more
 * processes (0.1–0.5 s a run, by load). When it fails, `os_info` reads /etc/os-release, as it
 * does where there is no `lsb_release`: the same answer.
 */
const NO_LSB_RELEASE = ((): string => {
  // One directory for every test process (the script never changes), written by rename so a
  // Codex starting meanwhile never runs a half-written file.
  const dir = join(SCRATCH_ROOT, 'agent-doubles-no-lsb-release')
  const script = join(dir, 'lsb_release')
  if (!existsSync(script)) {
    mkdirSync(dir, { recursive: true })
    const draft = `${script}.${process.pid}`
    writeFileSync(draft, '#!/bin/sh\nexit 1\n', { mode: 0o755 })
    renameSync(draft, script)
  }
  return dir
})()

/**
 * The Node that runs Gemini CLI (a Node program), and the compile cache it keeps: Node 22 or
 * later with `NODE_COMPILE_CACHE` keeps V8's code for the CLI's 20 MB of bundle between runs,
 * which Node 20 cannot. `AGENT_DOUBLES_RUNTIME_NODE` names one; else this Node when it is 22 or
 * later; else Node 24 by `npx --prefer-offline -y node@24` (resolved once per test file, from
 * npx's cache when it is there, as the Node 24 leg of `npm run test:all` leaves it); else this
 * Node, with the reason.
 */
export interface RuntimeNode {
  path: string
  version: string
  /** Variables for the run: `NODE_COMPILE_CACHE` when this Node has one, and malloc on huge pages. */
  env: Record<string, string>
  /** Why this is not a Node with a compile cache, when it is not. */
  note?: string
}

const COMPILE_CACHE = join(RUNTIMES_DIR, 'node_modules/.cache/node-compile-cache')

/**
 * glibc's malloc on transparent huge pages (`glibc.malloc.hugetlb=1`, glibc 2.35+; a no-op where
 * THP is `never` or the libc is not glibc), for Gemini CLI's Node. On this VM each first touch of
 * a 4 KiB page costs about 40 µs, and a text answer touches 65,000 of them (2.6 s at that
 * rate): about 60 MB of it is malloc's, which on 2 MiB pages faults 40% fewer times (a run's CPU
 * −18%, its time −14%, interleaved A/B, loaded). V8's own heap is not malloc's and is unchanged.
 * Any tunables already set are kept.
 */
const MALLOC_ON_HUGE_PAGES: Record<string, string> = {
  GLIBC_TUNABLES: [process.env.GLIBC_TUNABLES, 'glibc.malloc.hugetlb=1'].filter(Boolean).join(':'),
}
let runtimeNodePromise: Promise<RuntimeNode> | undefined

/** The Node that runs Gemini CLI here (see {@link RuntimeNode}); resolved once. */
export function runtimeNode(): Promise<RuntimeNode> {
  runtimeNodePromise ??= resolveRuntimeNode()
  return runtimeNodePromise
}

async function resolveRuntimeNode(): Promise<RuntimeNode> {
  const major = (version: string): number => Number(version.replace(/^v/, '').split('.')[0])
  const withCache = (path: string, version: string, note?: string): RuntimeNode =>
    major(version) >= 22
      ? { path, version, env: { NODE_COMPILE_CACHE: COMPILE_CACHE, ...MALLOC_ON_HUGE_PAGES } }
      : { path, version, env: { ...MALLOC_ON_HUGE_PAGES }, ...(note ? { note } : {}) }
  const probe = (command: string, args: string[]): Promise<string> =>
    new Promise((resolve, reject) => execFile(command, args, { timeout: 120_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))))
  const named = process.env.AGENT_DOUBLES_RUNTIME_NODE
  if (named) return withCache(named, await probe(named, ['--version']), `AGENT_DOUBLES_RUNTIME_NODE is Node ${named}, older than 22`)
  if (major(process.version) >= 22) return withCache(process.execPath, process.version)
  try {
    const [path, version] = (await probe('npx', ['--prefer-offline', '-y', 'node@24', '-p', 'process.execPath + " " + process.version'])).split('\n').at(-1)!.split(' ')
    return withCache(path!, version!)
  } catch (error) {
    return { path: process.execPath, version: process.version, env: { ...MALLOC_ON_HUGE_PAGES }, note: `no Node 22+ (npx -y node@24: ${(error as Error).message.split('\n')[0]}), so no compile cache` }
  }
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

/**
 * How many runtime processes run at once in one test file (`AGENT_DOUBLES_RUNTIME_SLOTS`, default
 * 2): the tests stay concurrent, each in its own lane, but a 2-core machine is not asked to start
 * six CLIs at the same moment. A run's time is measured from when it gets its slot.
 */
const SLOTS = Math.max(1, Number(process.env.AGENT_DOUBLES_RUNTIME_SLOTS) || 2)
let running = 0
const waiting: Array<() => void> = []

async function withSlot<T>(run: () => Promise<T>): Promise<T> {
  if (running >= SLOTS) await new Promise<void>((resolve) => waiting.push(resolve))
  else running++
  try {
    return await run()
  } finally {
    const next = waiting.shift()
    if (next) next()
    else running--
  }
}

/** What one run returned. */
export interface RunResult {
  code: number | null
  stdout: string
  stderr: string
  ms: number
}

/**
 * Runs `command args` with `env`, in a loopback-only namespace bridged to `urls` (the lane's
 * server, a FakeMcpServer) when the machine allows it, and collects its output.
 */
export async function runIsolated(command: string, args: string[], options: { urls: string[]; env: Record<string, string>; cwd: string; timeoutMs?: number }): Promise<RunResult> {
  const started = performance.now()
  const bridge = netnsReason ? undefined : await NetnsBridge.open(...options.urls)
  try {
    const [cmd, argv] = bridge ? [NETNS_EXEC, [command, ...args]] : [command, args]
    const child = spawn(cmd, argv, { cwd: options.cwd, env: { ...options.env, ...bridge?.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    return await collect(child, options.timeoutMs ?? 60_000, started)
  } finally {
    await bridge?.close()
  }
}

/** The runtimes of SPEC §17, by the name the helpers take. */
export type RuntimeName = 'claude' | 'codex' | 'gemini'

/**
 * A runtime's bare startup in ms: its `--version`, started exactly as a run is (the same
 * wrapper, namespace, relay and environment), so a run's time less this is what the run
 * itself took (its requests, our answers, its tools, its shutdown).
 */
export function bareStartup(which: RuntimeName): Promise<number> {
  return withSlot(async () => {
    const home = scratch(`${which}-home`)
    try {
      const [command, args, env] = await versionCommand(which)
      const run = await runIsolated(command, args, { urls: [], env: runEnv(home.dir, env), cwd: home.dir, timeoutMs: 120_000 })
      if (run.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.code}: ${run.stderr.slice(-500)}`)
      return run.ms
    } finally {
      home.dispose()
    }
  })
}

async function versionCommand(which: RuntimeName): Promise<[string, string[], Record<string, string>]> {
  const located = which === 'claude' ? claude.binary : which === 'codex' ? codex.binary : gemini.cli
  if (!located.ok) throw new Error(located.reason)
  if (which !== 'gemini') return [located.path, ['--version'], which === 'claude' ? CLAUDE_ENV : {}]
  const node = await runtimeNode()
  return [node.path, [located.path, '--version'], node.env]
}

/** What a runtime run is given. */
export interface RunOptions {
  /** The lane's URL. */
  url: string
  prompt: string
  /** The working directory (a scratch directory with the files the prompt is about). */
  cwd: string
  /** A FakeMcpServer's URL, offered to the runtime as the MCP server `notes`. */
  mcpUrl?: string
}

/** What a runtime answered, and how long the run took. */
export interface RuntimeAnswer {
  text: string
  ms: number
}

/** The base environment of a run: a PATH, a fresh home, telemetry off, the lane's variables. */
function runEnv(home: string, env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...quietEnv(home), ...env }
}

interface ClaudeSdk {
  query(input: { prompt: string; options: Record<string, unknown> }): AsyncIterable<{ type: string; subtype?: string; result?: string; is_error?: boolean }>
}

/**
 * What Claude Code's own allocator is told for a run (it is a Bun executable, on mimalloc, whose
 * heap is most of the 28,000 pages a text answer touches; on this VM each first touch of a 4 KiB
 * page costs about 40 µs):
 * - `MIMALLOC_ALLOW_THP=1`: its arena on transparent huge pages (2 MiB; THP `madvise` or `always`),
 *   which takes a run to about 3,800 page faults;
 * - `MIMALLOC_PURGE_DELAY=-1` and `MIMALLOC_PURGE_HOLES=0`: never give freed memory back to the OS.
 *   By default a scavenger thread returns freed ranges every 100 ms; inside a huge page each return
 *   splits it, so huge pages alone made runs slower. A run lives seconds and frees all at exit.
 * Together: CPU and wall −25% a run (interleaved A/B, loaded); the purge off alone, about −8% CPU.
 */
const CLAUDE_ENV: Record<string, string> = { MIMALLOC_ALLOW_THP: '1', MIMALLOC_PURGE_DELAY: '-1', MIMALLOC_PURGE_HOLES: '0' }

/** Claude Code through the Claude Agent SDK's `query()`, pointed at the lane by `fakeProxy.env`. */
export function runClaude(options: RunOptions & { env: Record<string, string>; allowedTools?: string[] }): Promise<RuntimeAnswer> {
  return withSlot(() => runClaudeNow(options))
}

async function runClaudeNow(options: RunOptions & { env: Record<string, string>; allowedTools?: string[] }): Promise<RuntimeAnswer> {
  const { query } = await load<ClaudeSdk>(claude.sdk)
  const home = scratch('claude-home')
  const started = performance.now()
  const bridge = netnsReason ? undefined : await NetnsBridge.open(options.url, ...(options.mcpUrl ? [options.mcpUrl] : []))
  try {
    const env = runEnv(home.dir, { ...CLAUDE_ENV, ...options.env, ...bridge?.env })
    let text = ''
    for await (const message of query({
      prompt: options.prompt,
      options: {
        cwd: options.cwd,
        env,
        pathToClaudeCodeExecutable: claude.binary.ok ? claude.binary.path : undefined,
        settingSources: [],
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        ...(options.allowedTools ? { allowedTools: options.allowedTools } : {}),
        ...(options.mcpUrl ? { mcpServers: { notes: { type: 'http', url: options.mcpUrl } }, mcpServersDelivery: 'initialize' } : {}),
        spawnClaudeCodeProcess: bridge
          ? (spawned: { command: string; args: string[]; cwd?: string; env: Record<string, string | undefined>; signal?: AbortSignal }) =>
              spawn(NETNS_EXEC, [spawned.command, ...spawned.args], { cwd: spawned.cwd, env: spawned.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'ignore'], signal: spawned.signal })
          : undefined,
      },
    })) {
      if (message.type === 'result') {
        if (message.is_error) throw new Error(`Claude Code ended with an error result: ${JSON.stringify(message).slice(0, 500)}`)
        text = message.result ?? ''
      }
    }
    return { text, ms: performance.now() - started }
  } finally {
    await bridge?.close()
    home.dispose()
  }
}

interface CodexSdk {
  Codex: new (options: Record<string, unknown>) => {
    startThread(options: Record<string, unknown>): { run(prompt: string): Promise<{ finalResponse: string; items: Array<{ type: string; [field: string]: unknown }> }> }
  }
}

/** Codex through the Codex SDK (its `codex` binary), on its default model, pointed at the lane by `baseUrl`. */
export function runCodex(options: RunOptions & { env: Record<string, string> }): Promise<RuntimeAnswer & { items: Array<{ type: string; [field: string]: unknown }> }> {
  return withSlot(() => runCodexNow(options))
}

async function runCodexNow(options: RunOptions & { env: Record<string, string> }): Promise<RuntimeAnswer & { items: Array<{ type: string; [field: string]: unknown }> }> {
  const { Codex } = await load<CodexSdk>(codex.sdk)
  if (!codex.binary.ok) throw new Error(codex.binary.reason)
  const home = scratch('codex-home')
  const started = performance.now()
  const bridge = netnsReason ? undefined : await NetnsBridge.open(options.url, ...(options.mcpUrl ? [options.mcpUrl] : []))
  try {
    const env = runEnv(home.dir, { ...options.env, ...bridge?.env, AGENT_DOUBLES_NETNS_TARGET: codex.binary.path })
    env.PATH = `${NO_LSB_RELEASE}:${env.PATH}`
    const client = new Codex({
      codexPathOverride: bridge ? NETNS_EXEC : codex.binary.path,
      baseUrl: options.env.OPENAI_BASE_URL,
      apiKey: options.env.OPENAI_API_KEY,
      env,
      config: {
        analytics: { enabled: false },
        feedback: { enabled: false },
        check_for_update_on_startup: false,
        // Plugins sync a curated catalogue from GitHub at startup, and shutdown waits for that
        // sync to fail (about 4 s in a namespace with no route out): off, as update checks are.
        // Shell snapshot: at startup Codex runs a login shell (`bash -lc`, the profile scripts
        // and a dozen processes) to capture its environment for later commands; off, commands
        // run in a plain shell.
        features: { plugins: false, shell_snapshot: false },
        ...(options.mcpUrl ? { experimental_use_rmcp_client: true, mcp_servers: { notes: { url: options.mcpUrl, startup_timeout_sec: 30, required: true } } } : {}),
      },
    })
    const thread = client.startThread({ workingDirectory: options.cwd, skipGitRepoCheck: true, sandboxMode: 'danger-full-access', approvalPolicy: 'never' })
    const turn = await thread.run(options.prompt)
    return { text: turn.finalResponse, items: turn.items, ms: performance.now() - started }
  } finally {
    await bridge?.close()
    home.dispose()
  }
}

/** Gemini CLI (`gemini -p … --output-format json`), pointed at the lane by `GOOGLE_GEMINI_BASE_URL`. */
export function runGemini(options: RunOptions & { env: Record<string, string> }): Promise<RuntimeAnswer & { run: RunResult }> {
  return withSlot(() => runGeminiNow(options))
}

async function runGeminiNow(options: RunOptions & { env: Record<string, string> }): Promise<RuntimeAnswer & { run: RunResult }> {
  if (!gemini.cli.ok) throw new Error(gemini.cli.reason)
  const home = scratch('gemini-home')
  try {
    writeGeminiSettings(home.dir, options.mcpUrl ? { mcpServers: { notes: { httpUrl: options.mcpUrl, trust: true } } } : {})
    const node = await runtimeNode()
    const env = runEnv(home.dir, { ...node.env, ...options.env })
    const args = [gemini.cli.path, '-p', options.prompt, '--output-format', 'json', '--yolo']
    const run = await runIsolated(node.path, args, { urls: [options.url, ...(options.mcpUrl ? [options.mcpUrl] : [])], env, cwd: options.cwd, timeoutMs: 150_000 })
    if (run.code !== 0) throw new Error(`gemini exited ${run.code}: ${run.stderr.slice(-1500)}`)
    const start = run.stdout.indexOf('{')
    const json = JSON.parse(run.stdout.slice(start)) as { response?: string }
    return { text: json.response ?? '', ms: run.ms, run }
  } finally {
    home.dispose()
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

export { NETNS_EXEC, NetnsBridge, closeNetns }
