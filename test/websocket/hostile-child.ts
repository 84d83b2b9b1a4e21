/**
 * Run in a child process by hostile.test.ts: a FakeProxy alone in its process, its event loop
 * watched with `monitorEventLoopDelay`, while the test's clients (in the parent) attack its
 * WebSocket transports. Prints `{"url"}` once listening; when stdin ends, closes the proxy and
 * prints what it measured: the longest event-loop block (CPU time between two timer ticks) and
 * stall (wall time, which a loaded machine lengthens) of each phase, the peak RSS growth, and the
 * handles left after `close()`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { FakeProxy } from '../../src/server/fake-proxy.js'
import type { LLM, ModelRequest, ModelResponse, StreamEvent } from '../../src/llm/types.js'

/** 'long' asks for 200,000 characters (96 MB of speech); 'slow' for words 20 ms apart; else a short answer. */
function answerFor(request: ModelRequest): { text: string; delayMs: number } {
  const last = JSON.stringify(request.messages.at(-1)?.content ?? '')
  if (last.includes('long')) return { text: 'long answer '.repeat(16_667), delayMs: 0 }
  if (last.includes('slow')) return { text: 'one two three four five six seven eight nine ten', delayMs: 20 }
  return { text: 'Hello there.', delayMs: 0 }
}

const brain: LLM = {
  async generate(request): Promise<ModelResponse> {
    return { content: [{ type: 'text', text: answerFor(request).text }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } }
  },
  async *stream(request, options): AsyncIterable<StreamEvent> {
    const { text, delayMs } = answerFor(request)
    const words = text.split(/(?<= )/)
    // The long answer goes in pieces of 10,000 characters: the speech of one is 4.8 MB.
    const pieces = delayMs === 0 && text.length > 1000 ? text.match(/[\s\S]{1,10000}/g)! : words
    for (const piece of pieces) {
      if (delayMs > 0) await sleep(delayMs, undefined, { signal: options?.signal })
      yield { type: 'text-delta', text: piece }
    }
    yield { type: 'finish', response: { content: [{ type: 'text', text }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } } }
  },
}

const proxy = await new FakeProxy({ llm: brain }).start()
const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()

/**
 * The event loop's blocks: between two ticks of a 10 ms timer, the CPU time the process spent
 * (capped by the time that passed). On a shared, loaded machine a late tick may only mean the
 * process waited for a core; what it spent in that gap is what it blocked the loop with. The
 * process's CPU time counts its other threads (GC helpers) too, so this errs high, not low.
 */
let blockMax = 0
let lastWall = performance.now()
let lastCpu = process.cpuUsage()
const ticker = setInterval(() => {
  const wall = performance.now()
  const cpu = process.cpuUsage()
  const block = Math.min(wall - lastWall, (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000)
  if (block > blockMax) blockMax = block
  lastWall = wall
  lastCpu = cpu
}, 10)
const baseline = process.memoryUsage().rss
let peak = baseline
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50)
process.stdout.write(`${JSON.stringify({ url: proxy.url })}\n`)

/** The longest block (CPU, see above) and stall (wall) of each phase the test marked (a line `mark <name>` on stdin). */
const phases: Record<string, number> = {}
const stalls: Record<string, number> = {}
let pending = ''
process.stdin.setEncoding('utf8')
process.stdin.on('data', (chunk: string) => {
  pending += chunk
  for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n')) {
    const line = pending.slice(0, end)
    pending = pending.slice(end + 1)
    if (line.startsWith('mark ')) {
      phases[line.slice(5)] = blockMax
      stalls[line.slice(5)] = delay.max / 1e6
      blockMax = 0
      delay.reset()
    }
  }
})
process.stdin.on('end', async () => {
  clearInterval(sampler)
  clearInterval(ticker)
  delay.disable()
  const sessions = proxy.sessions
  await proxy.close()
  // What close() left behind shows once its handles' own close callbacks ran.
  await sleep(200)
  process.stdin.pause()
  const resources = process.getActiveResourcesInfo()
  process.stdout.write(
    `${JSON.stringify({
      maxBlockMs: Math.max(blockMax, ...Object.values(phases)),
      maxDelayMs: Math.max(delay.max / 1e6, ...Object.values(stalls)),
      phases,
      stalls,
      rssGrowthMb: (peak - baseline) / 2 ** 20,
      resources,
      sessions: sessions.length,
      stillOpenBeforeClose: sessions.filter((session) => session.open).length,
      closeCodes: sessions.map((session) => session.closeCode),
    })}\n`,
  )
})
