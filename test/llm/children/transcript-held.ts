/**
 * Child (--expose-gc): what a transcript of short turns holds once loaded for replay, and that
 * replay still answers its turns in order. Prints JSON.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ScriptedLLM } from '../../../src/index.js'
import { collectGarbage } from '../../child-figures.js'

const turns = Number(process.argv[2])
const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-transcript-'))
const file = join(dir, 'short.jsonl')
const line = (i: number): string =>
  JSON.stringify({
    request: { model: 'gpt-5', messages: [{ role: 'user', content: [{ type: 'text', text: `hi ${i}` }] }] },
    response: { content: [{ type: 'text', text: `ok ${i}` }] },
  })
writeFileSync(file, `# a comment line\r\n${Array.from({ length: turns }, (_, i) => line(i)).join('\r\n')}\r\n`)
const fileBytes = statSync(file).size
const held = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers
collectGarbage()
collectGarbage()
const before = held()
const llm = await ScriptedLLM.fromTranscript(file, { strict: true })
collectGarbage()
collectGarbage()
const ratio = (held() - before) / fileBytes
const request = (text: string) => ({ model: 'gpt-5', stream: false, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text }] }] })
const first = await llm.generate(request('hi 0'))
const second = await llm.generate(request('hi 1'))
rmSync(dir, { recursive: true })
console.log(JSON.stringify({ ratio, first: first.content, second: second.content, remaining: llm.turnsRemaining }))
