/**
 * The stdio MCP server's input, line by line, with a limit (SPEC §24): the SDK's transport
 * closes itself when its buffer passes 10 MiB, so one oversized line ended `agent-doubles mcp`
 * with exit code 0 and nothing said. Lines go through here first: a line over the limit is
 * dropped up to its newline and answered with a JSON-RPC parse error (on stderr, as stdout
 * carries only the protocol), and the server keeps running.
 * @module
 */
import { Transform, type Readable } from 'node:stream'

/** The longest line the stdio server reads: 10 MiB, the SDK's own buffer limit. */
export const STDIO_LINE_LIMIT = 10 * 1024 * 1024

/**
 * `input` with every line longer than `limit` bytes removed; `onOverflow` is told of each one,
 * with the bytes dropped.
 */
export function limitLines(input: Readable, limit: number, onOverflow: (bytes: number) => void): Readable {
  let held: Buffer[] = []
  let heldBytes = 0
  // Inside an oversized line: its bytes are dropped until its newline.
  let skipping = false
  let skipped = 0
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0
      while (start < chunk.length) {
        const newline = chunk.indexOf(10, start)
        const end = newline === -1 ? chunk.length : newline + 1
        const piece = chunk.subarray(start, end)
        start = end
        if (skipping) {
          skipped += piece.length
          if (newline !== -1) {
            skipping = false
            onOverflow(skipped)
          }
          continue
        }
        if (heldBytes + piece.length > limit) {
          skipping = newline === -1
          skipped = heldBytes + piece.length
          held = []
          heldBytes = 0
          if (!skipping) onOverflow(skipped)
          continue
        }
        if (newline === -1) {
          held.push(piece)
          heldBytes += piece.length
          continue
        }
        this.push(held.length === 0 ? piece : Buffer.concat([...held, piece]))
        held = []
        heldBytes = 0
      }
      done()
    },
  })
  input.on('error', (error) => lines.destroy(error))
  return input.pipe(lines)
}

/** The JSON-RPC parse error written for an oversized line. */
export function lineTooLong(bytes: number, limit: number): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: a line of ${bytes} bytes exceeds the ${limit}-byte limit; it was dropped` } })}\n`
}
