/**
 * Child-process plumbing for the end-to-end tests: run a test runner (or `node`) as a user would,
 * with a clean environment, and capture what it printed, its exit code and whether it exited on
 * its own before a deadline.
 * @module
 */
import { execFile, spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

/** The repository root (where package.json and dist/ are). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

/** A path inside the repository. */
export const fromRoot = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url))

/**
 * The Node 20 binary: this process's when the driver runs on Node 20 (the root Vitest), else the
 * first `node` on PATH that is Node 20 (under `npx node@24` the first one is Node 24).
 */
export const node20 = process.versions.node.startsWith('20.') ? process.execPath : findNode20()

function findNode20(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node')
    if (!existsSync(candidate)) continue
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? ''
    if (version.startsWith('v20.')) return candidate
  }
  throw new Error('the e2e tests need Node 20: run them from the root Vitest (Node 20), or put a Node 20 `node` on PATH')
}

/** The Vitest 4 and Vitest 5 command-line scripts, and Jest 30's. */
export const vitest4Bin = fromRoot('node_modules/vitest/vitest.mjs')
export const vitest5Bin = fromRoot('test/matrix/node24/node_modules/vitest/vitest.mjs')
export const jestBin = fromRoot('node_modules/jest/bin/jest.js')

let node24Path: Promise<string> | undefined

/**
 * The Node 24 binary. `npx -y node@24` costs about 3 s per start, so it is asked once for the
 * path of the binary it runs, and children start that directly.
 */
export function node24(): Promise<string> {
  node24Path ??= promisify(execFile)('npx', ['-y', 'node@24', '-p', 'process.execPath'], {
    cwd: repoRoot,
    env: childEnv(),
  }).then(({ stdout }) => {
    const path = stdout.trim()
    if (!existsSync(path)) throw new Error(`npx -y node@24 gave no usable binary: ${JSON.stringify(stdout)}`)
    return path
  })
  return node24Path
}

/**
 * The environment of a child run: this one without what the driving Vitest set (a child Vitest
 * that inherits `VITEST_*` believes it runs inside a worker), without colours, and without any
 * model-client variables, so each test states the ones it needs.
 */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|TINYPOOL|JEST|OPENAI_|ANTHROPIC_)/.test(name)) continue
    if (['NODE_OPTIONS', 'NODE_ENV', 'TEST', 'FORCE_COLOR', 'CI', 'GITHUB_ACTIONS'].includes(name)) continue
    env[name] = value
  }
  return { ...env, NO_COLOR: '1', ...extra }
}

/** What a finished (or killed) child left behind. */
export interface ChildResult {
  /** The exit code; null when it was killed. */
  code: number | null
  stdout: string
  stderr: string
  /** stdout then stderr, ANSI codes removed. */
  output: string
  /** Whether the deadline passed and the child (with its process group) was killed. */
  timedOut: boolean
  ms: number
}

export interface RunOptions {
  cwd?: string
  env?: Record<string, string>
  /** The child must have exited by then, or it is killed and `timedOut` is set. @default 60_000 */
  timeoutMs?: number
}

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g

/**
 * Runs `command args` to the end and resolves with its output and exit code; never rejects on a
 * failing exit. The child leads its own process group, so a hung runner is killed with every
 * worker it started.
 */
export function runChild(command: string, args: string[], options: RunOptions = {}): Promise<ChildResult> {
  const { cwd = repoRoot, env = {}, timeoutMs = 60_000 } = options
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const deadline = setTimeout(() => {
      timedOut = true
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        // The group is already gone.
      }
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(deadline)
      reject(error)
    })
    child.on('close', (code) => {
      clearTimeout(deadline)
      const output = `${stdout}\n${stderr}`.replace(ANSI, '')
      resolve({ code, stdout, stderr, output, timedOut, ms: Date.now() - started })
    })
  })
}

/** The "Tests  3 passed | 1 failed (4)" (Vitest) or "Tests: 1 failed, 3 passed, 4 total" (Jest) counts. */
export function testCounts(output: string): { passed: number; failed: number } {
  const line = output.split('\n').findLast((text) => /^\s*Tests:?\s/.test(text)) ?? ''
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0)
  return { passed: count('passed'), failed: count('failed') }
}

/** Shows a child's output when an assertion about it fails. */
export function describeRun(result: ChildResult): string {
  return `exit ${result.code}${result.timedOut ? ' (killed at the deadline)' : ''} after ${result.ms} ms\n${result.output}`
}
