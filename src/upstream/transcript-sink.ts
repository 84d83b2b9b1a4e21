/**
 * Where record mode writes its transcript (SPEC §4.2): one line per turn, appended in the order
 * the turns were handed in, however many requests finish at once.
 * @module
 */
import type { ModelRequest, ModelResponse } from '../llm/types.js'
import { serializeTurn } from '../llm/transcript.js'

/** Anything with a node-style `write(chunk, callback)`: a `fs.WriteStream`, a `PassThrough`, `process.stdout`. */
export type TranscriptStream = Pick<NodeJS.WritableStream, 'write'>

/**
 * Appends transcript lines to a file (created, with its folders, on the first line) or to a
 * stream (never closed here: whoever opened it closes it). Writes are queued one after another,
 * so concurrent turns never interleave or get lost. Only the neutral request is written —
 * `serializeTurn` keeps the known request fields and nothing else — so headers and keys
 * cannot reach the file.
 * @example
 * const sink = new TranscriptSink('test/transcripts/recorded.jsonl')
 * await sink.append(request, response)
 */
export class TranscriptSink {
  readonly #to: string | TranscriptStream
  #queue: Promise<void> = Promise.resolve()
  #folderReady = false

  constructor(to: string | TranscriptStream) {
    this.#to = to
  }

  /** Appends one turn; resolves once its line is written, rejects if writing it failed. */
  append(request: ModelRequest, response: ModelResponse): Promise<void> {
    // Serialised now, so later changes to either object cannot change what is written.
    const line = serializeTurn(request, response)
    const written = this.#queue.then(() => this.#write(line))
    // One failed line must not stop the lines after it.
    this.#queue = written.catch(() => undefined)
    return written
  }

  /** Resolves once every line appended so far is written. The sink stays usable. */
  async close(): Promise<void> {
    await this.#queue
  }

  async #write(line: string): Promise<void> {
    const to = this.#to
    if (typeof to !== 'string') {
      // Handed over without waiting for the flush: a stream nobody reads yet (a PassThrough)
      // would hold the callback back forever. Order is kept, as writes are queued in order.
      to.write(line)
      return
    }
    // Node's file modules load here, not at the top, so the proxy loads where there are none.
    const [{ appendFile, mkdir }, { dirname }] = await Promise.all([import('node:fs/promises'), import('node:path')])
    if (!this.#folderReady) await mkdir(dirname(to), { recursive: true })
    this.#folderReady = true
    await appendFile(to, line, 'utf8')
  }
}
