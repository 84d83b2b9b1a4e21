/**
 * RecordMode mounted in a tiny node:http server of the test's own — the way the FakeProxy
 * pipeline will call it: find the route, read the body, decode it with the dialect, then
 * hand it to `serve()`. Requests whose dialect has no upstream get a 501 here.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import type { ModelRequest } from '../../../src/llm/types.js'
import { forwardableHeaders } from '../../../src/gateway/identity.js'
import { RecordMode, type RecordModeOptions, type RecordOutcome } from '../../../src/upstream/record-mode.js'
import { findRoute } from '../../../src/wire/dialects.js'
import { readAll, serve } from './serve.js'

/** A running RecordMode front: its URL and every outcome `serve()` gave, in order. */
export interface RecordingFront {
  url: string
  recordMode: RecordMode
  outcomes: RecordOutcome[]
}

export async function mountRecordMode(options: RecordModeOptions): Promise<RecordingFront> {
  const recordMode = new RecordMode(options)
  const outcomes: RecordOutcome[] = []
  const server = await serve(async (req, res) => {
    const url = req.url ?? '/'
    const route = findRoute(url.split('?')[0])
    const body = await readAll(req)
    if (!route || !recordMode.originFor(route.dialect.id)) return void res.writeHead(501).end()
    let request: ModelRequest | undefined
    if (route.dialect.kind === 'model') request = route.dialect.decode(JSON.parse(Buffer.from(body).toString('utf8')) as Record<string, unknown>)
    const outcome = await recordMode.serve({ dialect: route.dialect.id, method: req.method ?? 'GET', path: url, headers: forwardableHeaders(req.headers), body, request }, res)
    outcomes.push(outcome)
  })
  return { url: server.url, recordMode, outcomes }
}

/** A fresh temporary folder, removed when the test ends. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-doubles-record-'))
  onTestFinished(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** The transcript's lines, parsed (none when the file was never written). */
export async function transcriptLines(file: string): Promise<Array<{ request: ModelRequest; response: Record<string, unknown> }>> {
  const text = await readFile(file, 'utf8').catch(() => '')
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { request: ModelRequest; response: Record<string, unknown> })
}
