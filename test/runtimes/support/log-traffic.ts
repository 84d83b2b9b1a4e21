/**
 * Prints what each runtime sends to a lane (method, path, status, headers, body): the log the
 * fake's fidelity work is read from.
 * `npx tsx test/runtimes/support/log-traffic.ts [claude|codex|gemini|all] [--full] [--dump]`
 * (`--dump` writes each body to /tmp/rt-<runtime>-<n>.json).
 * @module
 */
import { writeFileSync } from 'node:fs'
import { FakeProxy } from '../../../src/index.js'
import { closeNetns, netnsReason, runClaude, runCodex, runGemini, scratch, type RunOptions } from './runtimes.js'

const which = process.argv[2] ?? 'all'
const full = process.argv.includes('--full')
const dump = process.argv.includes('--dump')
const proxy = await new FakeProxy().start()
console.log(`isolation: ${netnsReason ?? 'loopback-only network namespace'}`)

const runners: Record<string, (options: RunOptions & { env: Record<string, string> }) => Promise<{ text: string; ms: number }>> = {
  claude: runClaude,
  codex: runCodex,
  gemini: runGemini,
}

for (const [name, run] of Object.entries(runners)) {
  if (which !== 'all' && which !== name) continue
  const lane = proxy.lane(name)
  const work = scratch(`${name}-work`)
  try {
    const answer = await run({ url: lane.url, env: lane.env, prompt: 'Say hi', cwd: work.dir })
    console.log(`${name}: ${Math.round(answer.ms)} ms, answered ${JSON.stringify(answer.text)}`)
  } catch (error) {
    console.log(`${name} failed: ${(error as Error).message.slice(0, 2000)}`)
  }
  const requests = lane.requests
  console.log(`\n===== ${name}: ${requests.length} requests`)
  requests.forEach((r, n) => {
    const text = new TextDecoder().decode(r.body)
    console.log(`--- ${r.method} ${r.path} ${r.status ?? 200}${r.side ? ' (side)' : ''} ${r.error ? JSON.stringify(r.error.message) : ''}`)
    console.log('headers', JSON.stringify(r.headers))
    console.log('body', full ? text : text.slice(0, 1500))
    if (dump) writeFileSync(`/tmp/rt-${name}-${n}.json`, text)
    if (r.response) console.log('answered', JSON.stringify(r.response).slice(0, 300))
  })
  work.dispose()
  await lane.close()
}
await closeNetns()
await proxy.close()
