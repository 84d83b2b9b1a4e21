/**
 * `JSON.parse`'s own message for a large body that is not JSON, found off the event loop (SPEC
 * §24). The 400 for such a body carries the message a small body's would (`Unexpected token … in
 * JSON at position …`), and only `JSON.parse` of the whole text says it: parsed on the event loop,
 * 32 MiB held it for 200–700 ms. So the text is parsed in a worker thread, given the bytes in a
 * shared buffer filled a slice at a time. Where there are no worker threads (an edge runtime),
 * the caller parses at once.
 * @module
 */
import type { LoopSlices } from '../internal/scheduling.js'

/** Run by the worker: the message of `JSON.parse`'s error for the bytes it is given, or `null`. */
const PARSE_IN_WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
let bytes = Buffer.from(workerData.buffer)
// A byte-order mark is no part of the text, as the decoder of a small body drops it.
if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3)
let message = null
try {
  JSON.parse(bytes.toString('utf8'))
} catch (error) {
  message = error instanceof Error ? error.name + ': ' + error.message : String(error)
}
parentPort.postMessage(message)
`

/** How many bytes are copied into the shared buffer between looks at the clock. */
const COPY_STEP = 1024 * 1024

/**
 * What `JSON.parse` says of `bytes` (valid UTF-8): its error's `name: message`, `null` when it
 * parses them, `undefined` when no worker thread can tell.
 */
export async function syntaxErrorOf(bytes: Uint8Array, slices: LoopSlices): Promise<string | null | undefined> {
  let threads: typeof import('node:worker_threads')
  try {
    threads = await import('node:worker_threads')
  } catch {
    return undefined
  }
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength))
  for (let at = 0; at < bytes.byteLength; at += COPY_STEP) {
    shared.set(bytes.subarray(at, at + COPY_STEP), at)
    const pause = slices.turn()
    if (pause) await pause
  }
  return new Promise((resolve) => {
    let worker: import('node:worker_threads').Worker
    try {
      worker = new threads.Worker(PARSE_IN_WORKER, { eval: true, workerData: { buffer: shared.buffer } })
    } catch {
      resolve(undefined)
      return
    }
    // It ends by itself once it has answered; a process closing meanwhile does not wait for it.
    worker.unref()
    worker.once('message', (message: string | null) => resolve(message))
    worker.once('error', () => resolve(undefined))
    worker.once('exit', () => resolve(undefined))
  })
}
