/**
 * SPEC §11, §18: hostile WebSocket clients against a FakeProxy alone in a child process —
 * invalid JSON, unknown event types and binary frames (the API's `error` event, or Gemini
 * Live's 1007 close), a 64 MiB message (closed with 1009), a client that never reads (bounded
 * buffering), 1,000 sessions at once and abrupt disconnects mid-response — with no crash, the
 * event loop never blocked for 250 ms in any phase (CPU time between timer ticks, measured in
 * the child), and no timer or socket left after `close()`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'

let child: ChildProcessWithoutNullStreams
let lines: AsyncIterator<string>
let url: string

beforeAll(async () => {
  child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./hostile-child.ts', import.meta.url))], { stdio: ['pipe', 'pipe', 'pipe'] })
  child.stderr.resume()
  lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  url = (JSON.parse((await lines.next()).value as string) as { url: string }).url.replace(/^http/, 'ws')
}, 60_000)

afterAll(() => {
  if (child.exitCode === null) child.kill()
})

/** Tells the child a phase ended: its longest stall is noted under `name`. */
function mark(name: string): void {
  child.stdin.write(`mark ${name}\n`)
}

type Event = Record<string, unknown> & { type?: string }

/** An open client on `path`, with what it received and when it closed. */
async function client(path: string): Promise<{ ws: WebSocket; events: Event[]; next: (test: (event: Event) => boolean) => Promise<Event>; closed: Promise<number> }> {
  const ws = new WebSocket(`${url}${path}`, { maxPayload: 256 * 1024 * 1024 })
  const events: Event[] = []
  const waiters: Array<{ test: (event: Event) => boolean; resolve: (event: Event) => void }> = []
  ws.on('message', (data) => {
    const event = JSON.parse(String(data)) as Event
    events.push(event)
    for (const waiter of [...waiters]) {
      if (waiter.test(event)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(event)
      }
    }
  })
  ws.on('error', () => {})
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  return { ws, events, closed, next: (test) => new Promise((resolve) => waiters.push({ test, resolve })) }
}

const userText = (text: string): string => JSON.stringify({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } })
const textOnly = JSON.stringify({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } })
const responseDone = (event: Event): boolean => event.type === 'response.done'

describe('hostile WebSocket clients (the proxy in a child process)', () => {
  test('bad frames are answered with the API error and the session keeps serving; Gemini Live closes with 1007', async () => {
    const realtime = await client('/v1/realtime?model=gpt-realtime')
    for (let n = 0; n < 20; n++) {
      realtime.ws.send(`{"type":"session.update",${n}`)
      realtime.ws.send(JSON.stringify({ type: `made.up.${n}` }))
      realtime.ws.send(Buffer.from([0xff, 0xfe, n]))
      realtime.ws.send('[1,2,3]')
    }
    realtime.ws.send(userText('hi'))
    realtime.ws.send(JSON.stringify({ type: 'response.create' }))
    await realtime.next(responseDone)
    const errors = realtime.events.filter((event) => event.type === 'error').map((event) => (event.error as { code: string }).code)
    expect(errors).toHaveLength(80)
    expect(new Set(errors)).toEqual(new Set(['invalid_json', 'invalid_value']))
    realtime.ws.close()

    const responses = await client('/v1/responses')
    responses.ws.send('not json')
    expect(await responses.next((event) => event.type === 'error')).toMatchObject({ status: 400, error: { code: 'invalid_json' } })
    responses.ws.close()

    const live = await client('/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k')
    live.ws.send('{"setup":')
    expect(await live.closed).toBe(1007)
    mark('bad frames')
  })

  test('a 64 MiB message closes the connection with 1009, read no further', async () => {
    const { ws, closed } = await client('/v1/realtime?model=gpt-realtime')
    ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: 'A'.repeat(64 * 1024 * 1024) }))
    expect(await closed).toBe(1009)
    mark('64 MiB message')
  }, 60_000)

  test('a client that never reads: its answer waits for it instead of piling up 128 MB of speech', async () => {
    const { ws } = await client('/v1/realtime?model=gpt-realtime')
    ws.send(userText('give me the long one'))
    ws.send(JSON.stringify({ type: 'response.create' }))
    // Stop reading: the server's writes fill the socket and wait.
    ;(ws as unknown as { _socket: { pause(): void } })._socket.pause()
    await new Promise((resolve) => setTimeout(resolve, 1500))
    ws.terminate()
    mark('never reads')
  })

  test('1,000 sessions at once each get their own answer', async () => {
    const sessions = await Promise.all(Array.from({ length: 1000 }, () => client('/v1/realtime?model=gpt-realtime')))
    mark('1,000 sessions: opening')
    const done = sessions.map((session) => session.next(responseDone))
    for (const session of sessions) {
      session.ws.send(textOnly)
      session.ws.send(userText('hello'))
      session.ws.send(JSON.stringify({ type: 'response.create' }))
    }
    const answers = await Promise.all(done)
    mark('1,000 sessions: answering')
    expect(answers.every((event) => (event.response as { status: string }).status === 'completed')).toBe(true)
    expect(sessions.every((session) => session.events.some((event) => event.type === 'response.output_text.done' && event.text === 'Hello there.'))).toBe(true)
    for (const session of sessions) session.ws.terminate()
    mark('1,000 sessions: closing')
  }, 120_000)

  test('abrupt disconnects mid-response', async () => {
    const sessions = await Promise.all(Array.from({ length: 50 }, () => client('/v1/realtime?model=gpt-realtime')))
    const started = sessions.map((session) => session.next((event) => event.type === 'response.output_audio.delta'))
    for (const session of sessions) {
      session.ws.send(userText('slow please'))
      session.ws.send(JSON.stringify({ type: 'response.create' }))
    }
    await Promise.all(started)
    for (const session of sessions) session.ws.terminate()
    // One more session is still served.
    const after = await client('/v1/realtime?model=gpt-realtime')
    after.ws.send(userText('hello'))
    after.ws.send(JSON.stringify({ type: 'response.create' }))
    await after.next(responseDone)
    after.ws.close()
    mark('abrupt disconnects')
  })

  test('no crash, stalls bounded, memory bounded, nothing left after close()', async () => {
    child.stdin.end()
    const report = JSON.parse((await lines.next()).value as string) as {
      phases: Record<string, number>
      stalls: Record<string, number>
      rssGrowthMb: number
      resources: string[]
      sessions: number
    }
    const code = await new Promise<number | null>((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(child.exitCode)))
    expect(code).toBe(0)
    if (process.env.HOSTILE_REPORT) console.log(JSON.stringify({ phases: report.phases, stalls: report.stalls, rssGrowthMb: report.rssGrowthMb }))
    expect(report.sessions).toBeGreaterThan(1050)
    // SPEC §11: no phase blocks the proxy's event loop for 250 ms, counted in the CPU time its
    // process spent between two ticks of a 10 ms timer (see hostile-child.ts). The wall-clock
    // stall, which also counts the time the process waited for a core while six test runs share
    // two, is only bounded against a hang.
    expect(Object.keys(report.phases)).toEqual(['bad frames', '64 MiB message', 'never reads', '1,000 sessions: opening', '1,000 sessions: answering', '1,000 sessions: closing', 'abrupt disconnects'])
    for (const [phase, blockMs] of Object.entries(report.phases)) expect({ phase, blocked: blockMs < 250 }).toEqual({ phase, blocked: true })
    for (const [phase, stallMs] of Object.entries(report.stalls)) expect({ phase, stalled: stallMs < 5_000 }).toEqual({ phase, stalled: true })
    expect(report.rssGrowthMb).toBeLessThan(100)
    expect(report.resources.filter((name) => name === 'Timeout' || name.startsWith('TCP'))).toEqual([])
  }, 60_000)
})
