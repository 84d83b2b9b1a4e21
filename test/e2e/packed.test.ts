// The PACKED package, installed as node_modules/agent-doubles of a throwaway project under .tmp/:
// every `exports` entry resolves from ESM and CJS, '.' and './matchers' load in both with their
// named exports, a double made by one copy is an instance of the other's class, and the bin serves.
// Then a child Vitest and a child Jest run against that install, with no alias or mapper at all.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { describeRun, fromRoot, jestBin, node20, repoRoot, runChild, testCounts, vitest4Bin, type ChildResult } from './helpers.js'
import { consumerFiles } from './packed-consumer.js'

// Child runs take seconds, and longer on a loaded machine; the children's own deadlines catch hangs.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

let project = ''
let installed = ''
let packedFiles: string[] = []
// The child Vitest and Jest runs start as soon as the install exists; their tests await them.
const runs = new Map<string, Promise<ChildResult>>()

beforeAll(async () => {
  if (!existsSync(fromRoot('dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` before the e2e tests')
  await mkdir(fromRoot('.tmp'), { recursive: true })
  project = await mkdtemp(join(fromRoot('.tmp'), 'e2e-packed-'))
  installed = join(project, 'node_modules/agent-doubles')

  const pack = await runChild('npm', ['pack', '--pack-destination', project, '--json', '--ignore-scripts'], { cwd: repoRoot })
  expect(pack.code, describeRun(pack)).toBe(0)
  const [{ filename, files }] = JSON.parse(pack.stdout) as [{ filename: string; files: { path: string }[] }]
  packedFiles = files.map((file) => file.path)

  await mkdir(installed, { recursive: true })
  const untar = await runChild('tar', ['-xzf', join(project, filename), '-C', installed, '--strip-components=1'])
  expect(untar.code, describeRun(untar)).toBe(0)
  // Its own package.json: without one, Node's self-reference would resolve 'agent-doubles' to
  // the repository's dist/ (the nearest package.json up the tree is the repository's).
  for (const [name, text] of Object.entries(consumerFiles)) await writeFile(join(project, name), text)

  runs.set('vitest', runChild(node20, [vitest4Bin, 'run'], { cwd: project }))
  runs.set('jest', runChild(node20, [jestBin, '--detectOpenHandles', '--ci'], { cwd: project, timeoutMs: 60_000 }))
}, 120_000)

afterAll(async () => {
  await Promise.allSettled(runs.values())
  if (project) await rm(project, { recursive: true, force: true })
})

/** Runs `node <args>` in the consumer project and parses the JSON line it prints. */
async function nodeJson(args: string[]): Promise<Record<string, any>> {
  const run = await runChild(node20, args, { cwd: project })
  expect(run.code, describeRun(run)).toBe(0)
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!)
}

describe('the tarball', () => {
  test('holds only dist/, README and package.json, and every file package.json names', async () => {
    expect(packedFiles).toContain('dist/index.js')
    for (const path of packedFiles) expect(path).toMatch(/^(dist\/|types\/|README\.md$|package\.json$|LICENSE)/)

    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'))
    const named = [manifest.main, manifest.module, manifest.types, ...Object.values(manifest.bin), ...targets(manifest.exports)]
    expect(named).toEqual(expect.arrayContaining(['./dist/index.d.cts', './dist/jest/setup.cjs', './dist/vitest/setup.js', './dist/cli.js']))
    const missing = named.filter((path) => !existsSync(join(installed, path)))
    expect(missing).toEqual([])
  })
})

describe('loading every entry', () => {
  test('ESM: "." and "./matchers" load with their named exports; every entry resolves into the install', async () => {
    const out = await nodeJson(['--input-type=module', '-e', consumerFiles['esm-check.mjs']])
    expect(out.root).toEqual(expect.arrayContaining(['MockAgent', 'mockAgent', 'FakeProxy', 'ScriptedLLM', 'scriptedLLM', 'Envelope', 'resetAll', 'refusalCodes']))
    expect(out.matchers).toEqual(expect.arrayContaining(['matchers', 'installMatchers']))
    expect(out.matcherNames).toEqual(
      expect.arrayContaining(['toHaveBeenCalledWithTask', 'toHaveRefusedWith', 'toHaveText', 'toHaveSentValidRequests', 'toHaveCalledMcpTool', 'toHaveCalledToolsInOrder', 'toHaveUsedAtMost']),
    )
    expect(out.matcherNames).toContain('toHaveHitPromptCache')
    expect(out.matcherNames).toHaveLength(19)
    expect(out.inProcessSharesClasses).toBe(true)
    expect(out.resolved).toEqual({
      'agent-doubles': 'dist/index.js',
      'agent-doubles/matchers': 'dist/matchers/index.js',
      'agent-doubles/in-process': 'dist/in-process.js',
      'agent-doubles/vitest': 'dist/vitest/index.js',
      'agent-doubles/vitest/setup': 'dist/vitest/setup.js',
      'agent-doubles/jest': 'dist/jest/index.js',
      'agent-doubles/jest/setup': 'dist/jest/setup.js',
      'agent-doubles/jest/globals': 'dist/jest/globals.js',
      'agent-doubles/package.json': 'package.json',
    })
  })

  test('CJS: "." and "./matchers" load with the same names; the Jest entries resolve; the Vitest ones are import-only', async () => {
    const esm = await nodeJson(['--input-type=module', '-e', consumerFiles['esm-check.mjs']])
    const out = await nodeJson(['-e', consumerFiles['cjs-check.cjs']])
    expect(out.root).toEqual(esm.root)
    expect(out.matchers).toEqual(esm.matchers)
    expect(out.matcherNames).toEqual(esm.matcherNames)
    expect(out.inProcessSharesClasses).toBe(true)
    expect(out.resolved).toEqual({
      'agent-doubles': 'dist/index.cjs',
      'agent-doubles/matchers': 'dist/matchers/index.cjs',
      'agent-doubles/in-process': 'dist/in-process.cjs',
      'agent-doubles/jest': 'dist/jest/index.cjs',
      'agent-doubles/jest/setup': 'dist/jest/setup.cjs',
      'agent-doubles/jest/globals': 'dist/jest/globals.cjs',
      'agent-doubles/package.json': 'package.json',
    })
    expect(out.vitestFromRequire).toEqual({
      'agent-doubles/vitest': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      'agent-doubles/vitest/setup': 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    })
  })

  test('the ESM and CJS copies are two modules that recognise each other’s doubles and share one registry', async () => {
    const out = await nodeJson(['--input-type=module', '-e', consumerFiles['brand-check.mjs']])
    expect(out).toEqual({
      twoCopies: true,
      cjsAgentIsEsmMockAgent: true,
      esmAgentIsCjsMockAgent: true,
      esmProxyIsCjsFakeProxy: true,
      cjsLLMIsEsmScriptedLLM: true,
      plainObjectIsNotMockAgent: false,
      esmMatcherReadsCjsAgent: true,
      esmMatcherReadsCjsEnvelope: true,
      esmResetAllClearsCjsAgent: true,
    })
  })
})

test('the bin: `node dist/cli.js serve` prints a URL, serves, and exits 0 on SIGINT', async () => {
  const cli = join(installed, 'dist/cli.js')
  expect((await readFile(cli, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true)
  const child = spawn(node20, [cli, 'serve'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer]
    const url = chunk.toString().trim()
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await fetch(`${url}/v1/models`)).status).toBe(200)
    const exited = once(child, 'exit')
    child.kill('SIGINT')
    const [code] = (await exited) as [number | null]
    expect(code).toBe(0)
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
})

describe('runners using the install, as users do (no alias, no moduleNameMapper)', () => {
  test('Vitest 4: setupFiles + the fixture `test` from node_modules/agent-doubles pass and exit 0', async () => {
    const run = await runs.get('vitest')!
    expect(run.timedOut, describeRun(run)).toBe(false)
    expect(run.code, describeRun(run)).toBe(0)
    expect(testCounts(run.output), describeRun(run)).toEqual({ passed: 4, failed: 0 })
  })

  test('Jest 30: setupFilesAfterEnv + useFakeProxy from node_modules/agent-doubles pass, no open handle, exit 0', async () => {
    const run = await runs.get('jest')!
    expect(run.timedOut, describeRun(run)).toBe(false)
    expect(run.code, describeRun(run)).toBe(0)
    expect(testCounts(run.output), describeRun(run)).toEqual({ passed: 3, failed: 0 })
    expect(run.output).not.toMatch(/open handle/i)
  })
})

/** Every file path an `exports` map names, through nested conditions. */
function targets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports]
  if (exports === null || typeof exports !== 'object') return []
  return Object.values(exports).flatMap(targets)
}
