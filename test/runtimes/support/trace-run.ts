/**
 * Where a runtime run's time goes: runs one runtime against a lane (a one-turn text answer) and
 * prints a timeline, in ms from the run's start, of every connection it opened to the fake and
 * every chunk each way (its first line), so the gaps between the runtime's own steps show.
 * `npx tsx test/runtimes/support/trace-run.ts claude|codex|gemini [runs]`
 * @module
 */
import type { Socket } from 'node:net'
import { FakeProxy, ScriptedLLM } from '../../../src/index.js'
import { traceConnections } from './netns.js'
import { closeNetns, runClaude, runCodex, runGemini, scratch, type RunOptions } from './runtimes.js'

const which = process.argv[2] ?? 'codex'
const runs = Number(process.argv[3] ?? 1)
const runners: Record<string, (options: RunOptions & { env: Record<string, string> }) => Promise<{ text: string; ms: number }>> = {
  claude: runClaude,
  codex: runCodex,
  gemini: runGemini,
}
const run = runners[which]
if (!run) throw new Error(`no runtime ${which}`)

const proxy = await new FakeProxy().start()
let t0 = 0
let connections = 0
const at = (): string => `${(performance.now() - t0).toFixed(0).padStart(6)} ms`
const first = (chunk: Buffer | string): string => JSON.stringify(chunk.toString('latin1').split('\r\n')[0]!.slice(0, 110))
traceConnections((port: number, toServer: Socket) => {
  const id = ++connections
  console.log(`${at()}  #${id} open (port ${port})`)
  const write = toServer.write.bind(toServer) as (chunk: Buffer, ...rest: unknown[]) => boolean
  toServer.write = ((chunk: Buffer, ...rest: unknown[]) => {
    console.log(`${at()}  #${id} → ${String(chunk.length).padStart(6)} B ${first(chunk)}`)
    return write(chunk, ...rest)
  }) as typeof toServer.write
  toServer.on('data', (chunk: Buffer) => console.log(`${at()}  #${id} ← ${String(chunk.length).padStart(6)} B ${first(chunk)}`))
  toServer.on('close', () => console.log(`${at()}  #${id} closed`))
})

for (let n = 0; n < runs; n++) {
  const lane = proxy.lane(`${which}-${n}`)
  lane.use(new ScriptedLLM(['Hi there.']))
  const work = scratch(`${which}-trace`)
  connections = 0
  t0 = performance.now()
  console.log(`===== ${which} run ${n + 1}`)
  const answer = await run({ url: lane.url, env: lane.env, prompt: 'Say hi', cwd: work.dir })
  console.log(`${at()}  done: ${Math.round(answer.ms)} ms, answered ${JSON.stringify(answer.text)}`)
  for (const request of lane.requests) console.log(`   record: ${request.method} ${request.path}${request.side ? ' (side)' : ''} ${request.status ?? 200}`)
  work.dispose()
  await lane.close()
}
traceConnections(undefined)
await closeNetns()
await proxy.close()
