/**
 * Memory figures of SPEC §16 / §11, each measured in a child process with `--expose-gc`.
 */
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { FigureGroup } from '../run.js'

const run = promisify(execFile)
const MiB = 1024 * 1024

/** Runs a TypeScript child with --expose-gc and returns the JSON it printed last. */
export async function child(path: string, args: string[]): Promise<Record<string, number>> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(new URL(path, import.meta.url)), ...args], {
    maxBuffer: 1024 * 1024,
  })
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>
}

export const figures: FigureGroup[] = [
  {
    title: 'server memory while streaming a 1 MB reply in \'chars\' chunking (1M events), peak heap growth',
    async measure(quick) {
      const events = quick ? 200_000 : 1_000_000
      const result = await child('../../test/proxy/children/stream-heap.ts', [String(events)])
      return [{ name: `${events.toLocaleString('en')} events, heap growth`, value: result.peakGrowth / MiB, unit: 'MiB', limit: 64 }]
    },
  },
  {
    title: 'records: heap per request of FakeProxy + ScriptedLLM (JSON, via proxy.fetch)',
    async measure(quick) {
      const result = await child('../../test/proxy/children/records-heap.ts', [String(quick ? 2000 : 5000)])
      return [
        { name: 'held per request, everything', value: result.perRequest, unit: 'B' },
        { name: 'request + response body bytes', value: result.bodies, unit: 'B' },
        { name: 'held per request beyond the bodies, the fixed amount included', value: result.beyondBodies, unit: 'B' },
        // What the records hold is what reset() frees: the fixed amount below (caches, compiled
        // code, the same for 2,000 requests or 10,000) is not a request's.
        { name: 'held by the records per request beyond the bodies (freed by proxy.reset())', value: result.recordsBeyondBodies, unit: 'B', limit: 1024 },
        { name: 'held after proxy.reset(), all requests together', value: result.afterResetBytes / 1024, unit: 'KiB' },
      ]
    },
  },
  {
    title: 'garbage per request on the server: allocated answering one request (server alone, raw HTTP/1.1 client)',
    async measure(quick) {
      const result = await child('./garbage.ts', [String(quick ? 1000 : 3000)])
      const kinds = [
        ['json', 'openai JSON'],
        ['chatStream', 'openai stream (50)'],
        ['messagesStream', 'Anthropic stream (48)'],
      ] as const
      return kinds.flatMap(([key, label]) => [
        { name: `${label}: floor (bare node:http)`, value: result[`${key}.floor`] / 1024, unit: 'KiB' },
        { name: `${label}: FakeProxy + ScriptedLLM`, value: result[`${key}.proxy`] / 1024, unit: 'KiB' },
        { name: `${label}: FakeProxy ÷ floor`, value: result[`${key}.proxy`] / result[`${key}.floor`], unit: '×' },
        // Its records (kept until the next reset) are most of it; an answer's own objects should not be.
        { name: `${label}: FakeProxy, kept past young GCs`, value: result[`${key}.proxy.kept`], unit: 'B' },
      ])
    },
  },
  {
    title: '100k-turn transcript loaded with ScriptedLLM.fromTranscript (heap and array buffers held)',
    async measure(quick) {
      const turns = String(quick ? 20_000 : 100_000)
      const rows = []
      for (const shape of ['short', 'long'] as const) {
        const result = await child('./transcript.ts', [turns, shape])
        const label = shape === 'short' ? 'short turns (one short user line, one short answer)' : 'longer turns (system prompt, usage)'
        rows.push(
          { name: `${label}: file size (${result.turns.toLocaleString('en')} turns)`, value: result.fileBytes / MiB, unit: 'MiB' },
          { name: `${label}: held ÷ file size`, value: result.ratio, unit: '×', limit: 1.5 },
        )
      }
      return rows
    },
  },
]
