/**
 * Prints what each runtime sends to a lane (method, path, status, headers, body): the log the
 * fake's fidelity work is read from. `npx tsx test/runtimes/support/log-traffic.ts [claude|codex|gemini]`
 * @module
 */
import { FakeProxy } from '../../../src/index.js'
import { clientEnv } from '../../../src/server/client-env.js'
import { claude, codex, gemini, load, netnsReason, quietEnv, runIsolated, scratch, writeGeminiSettings, NetnsBridge, NETNS_EXEC } from './runtimes.js'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'

const which = process.argv[2] ?? 'all'
const full = process.argv.includes("--full")
const dump = process.argv.includes("--dump")
const proxy = await new FakeProxy().start()
console.log(`isolation: ${netnsReason ?? 'loopback-only network namespace'}`)

function print(title: string): void {
  console.log(`\n===== ${title}: ${proxy.requests.length} requests`)
  for (const r of proxy.requests) {
    const text = new TextDecoder().decode(r.body)
    console.log(`--- ${r.method} ${r.path} ${r.status ?? 200} ${r.error ? JSON.stringify(r.error.message) : ''}`)
    console.log('headers', JSON.stringify(r.headers))
    console.log('body', full ? text : text.slice(0, 1500))
    if (dump) writeFileSync(`/tmp/rt-${title}-${proxy.requests.indexOf(r)}.json`, text)
    if (r.response) console.log('answered', JSON.stringify(r.response).slice(0, 300))
  }
  proxy.reset()
}

if (which === 'all' || which === 'gemini') {
  const lane = proxy.lane('gemini')
  const home = scratch('gemini')
  writeGeminiSettings(home.dir)
  const env = { PATH: process.env.PATH ?? '', ...quietEnv(home.dir), ...clientEnv(lane.url) }
  if (!gemini.cli.ok) throw new Error(gemini.cli.reason)
  const run = await runIsolated(process.execPath, [gemini.cli.path, '-p', 'Say hi', '--output-format', 'json'], { url: lane.url, env, cwd: home.dir, timeoutMs: 40_000 })
  console.log('gemini', run.code, Math.round(run.ms), 'ms\nstdout', run.stdout.slice(0, 1500), '\nstderr', run.stderr.slice(0, 1500))
  print('gemini')
  home.dispose()
  await lane.close()
}

if (which === 'all' || which === 'codex') {
  const lane = proxy.lane('codex')
  const home = scratch('codex')
  const { Codex } = await load<typeof import('@openai/codex-sdk')>(codex.sdk)
  if (!codex.binary.ok) throw new Error(codex.binary.reason)
  const bridge = netnsReason ? undefined : await NetnsBridge.open(lane.url)
  const env = { PATH: process.env.PATH ?? '', ...quietEnv(home.dir), ...clientEnv(lane.url), ...bridge?.env, AGENT_DOUBLES_NETNS_TARGET: codex.binary.path }
  const client = new Codex({ codexPathOverride: bridge ? NETNS_EXEC : codex.binary.path, baseUrl: `${lane.url}/v1`, apiKey: 'placeholder', env, config: { analytics: { enabled: false }, check_for_update_on_startup: false } })
  const thread = client.startThread({ workingDirectory: home.dir, skipGitRepoCheck: true, sandboxMode: 'danger-full-access', approvalPolicy: 'never' } as never)
  const started = performance.now()
  try {
    const turn = await thread.run('Say hi')
    console.log('codex', Math.round(performance.now() - started), 'ms', JSON.stringify(turn).slice(0, 800))
  } catch (error) {
    console.log('codex failed', Math.round(performance.now() - started), 'ms', (error as Error).message.slice(0, 1500))
  }
  print('codex')
  await bridge?.close()
  home.dispose()
  await lane.close()
}

if (which === 'all' || which === 'claude') {
  const lane = proxy.lane('claude')
  const home = scratch('claude')
  const { query } = await load<typeof import('@anthropic-ai/claude-agent-sdk')>(claude.sdk)
  const bridge = netnsReason ? undefined : await NetnsBridge.open(lane.url)
  const env: Record<string, string | undefined> = { PATH: process.env.PATH ?? '', ...quietEnv(home.dir), ...clientEnv(lane.url), ...bridge?.env }
  // --chatty: the requests Claude Code makes when non-essential traffic is on (title, quota, model list…).
  if (process.argv.includes('--chatty')) delete env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC
  const started = performance.now()
  try {
    for await (const message of query({
      prompt: 'Say hi',
      options: {
        cwd: home.dir,
        env,
        pathToClaudeCodeExecutable: claude.binary.ok ? claude.binary.path : undefined,
        settingSources: [],
        permissionMode: 'bypassPermissions',
        allowDangerouslySkipPermissions: true,
        spawnClaudeCodeProcess: bridge
          ? (options) => spawn(NETNS_EXEC, [options.command, ...options.args], { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'inherit'], signal: options.signal })
          : undefined,
      },
    })) {
      if (message.type === 'result') console.log('claude result', JSON.stringify(message).slice(0, 800))
    }
  } catch (error) {
    console.log('claude failed', (error as Error).message.slice(0, 1500))
  }
  console.log('claude', Math.round(performance.now() - started), 'ms')
  print('claude')
  await bridge?.close()
  home.dispose()
  await lane.close()
}
await proxy.close()
