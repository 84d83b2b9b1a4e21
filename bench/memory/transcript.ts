/**
 * Child process (--expose-gc): loads a transcript of `turns` turns with
 * `ScriptedLLM.fromTranscript` and prints what it holds (heap and array buffers) as a multiple
 * of the file's size. `short` turns are one short user line and one short answer (the shape
 * where per-turn overhead shows most); `long` turns carry a system prompt and usage. Prints JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ScriptedLLM } from 'agent-doubles'

const turns = Number(process.argv[2] ?? 100_000)
const shape = process.argv[3] === 'short' ? 'short' : 'long'
const gc = (globalThis as { gc?: () => void }).gc!
const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-bench-'))
const file = join(dir, 'transcript.jsonl')

function turn(i: number): unknown {
  if (shape === 'short') {
    return {
      request: { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: `hi ${i}` }] }] },
      response: { content: [{ type: 'text', text: `ok ${i}` }] },
    }
  }
  const request = { model: 'gpt-5', system: 'You are a travel agent.', messages: [{ role: 'user', content: [{ type: 'text', text: `question ${i}: where should I go next?` }] }], stream: false }
  const response = { content: [{ type: 'text', text: `answer ${i}: go to Paris, then Lyon.` }], finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 9 } }
  return { request, response }
}

const lines: string[] = []
for (let i = 0; i < turns; i++) lines.push(JSON.stringify(turn(i)))
writeFileSync(file, `${lines.join('\n')}\n`)
const size = Buffer.byteLength(lines.join('\n')) + 1
lines.length = 0
const held = (): number => {
  const usage = process.memoryUsage()
  return usage.heapUsed + usage.arrayBuffers
}
gc()
const before = held()
const llm = await ScriptedLLM.fromTranscript(file)
// Two full GCs: the first can leave the file's text for the second.
gc()
gc()
const bytes = held() - before
rmSync(dir, { recursive: true })
console.log(JSON.stringify({ turns: llm.turnsRemaining, fileBytes: size, heldBytes: bytes, ratio: bytes / size }))
