/**
 * Child process (--expose-gc): loads a 100k-turn transcript with `ScriptedLLM.fromTranscript`
 * and prints the heap it holds as a multiple of the file's size. Prints JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ScriptedLLM } from 'agent-doubles'

const turns = Number(process.argv[2] ?? 100_000)
const gc = (globalThis as { gc?: () => void }).gc!
const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-bench-'))
const file = join(dir, 'long.jsonl')
const lines: string[] = []
for (let i = 0; i < turns; i++) {
  const request = { model: 'gpt-5', system: 'You are a travel agent.', messages: [{ role: 'user', content: [{ type: 'text', text: `question ${i}: where should I go next?` }] }], stream: false }
  const response = { content: [{ type: 'text', text: `answer ${i}: go to Paris, then Lyon.` }], finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 9 } }
  lines.push(JSON.stringify({ request, response }))
}
writeFileSync(file, `${lines.join('\n')}\n`)
const size = Buffer.byteLength(lines.join('\n')) + 1
lines.length = 0
gc()
const before = process.memoryUsage().heapUsed
const llm = await ScriptedLLM.fromTranscript(file)
gc()
const held = process.memoryUsage().heapUsed - before
rmSync(dir, { recursive: true })
console.log(JSON.stringify({ turns: llm.turnsRemaining, fileBytes: size, heldBytes: held, ratio: held / size }))
