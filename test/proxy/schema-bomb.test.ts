/**
 * SPEC §10.4 regression: a few hundred bytes asking for 2000 × 2000 × 2000 values once made the
 * default brain build them until the process ran out of memory. A proxy in a child process with
 * a small heap must answer each wire's bomb with a 400 and keep serving.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { expect, onTestFinished, test } from 'vitest'

const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
const bomb = { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000, items: { type: 'array', minItems: 2000 } } }

const requests = [
  { path: '/v1/chat/completions', body: { model: 'm', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { name: 'b', schema: bomb } } } },
  { path: '/v1/responses', body: { model: 'm', input: 'x', text: { format: { type: 'json_schema', name: 'b', schema: bomb } } } },
  { path: '/v1/messages', body: { model: 'm', max_tokens: 9, messages: [{ role: 'user', content: 'x' }], tools: [{ name: 'b', input_schema: { type: 'object', properties: { b: bomb }, required: ['b'] } }], tool_choice: { type: 'any' } } },
]

test('the nested-minItems bomb gets a 400 on all three wires from a proxy with a 64 MiB heap', async () => {
  const child = spawn(process.execPath, ['--max-old-space-size=64', '--import', 'tsx', cli, 'serve'], { stdio: ['ignore', 'pipe', 'pipe'] })
  onTestFinished(() => {
    if (child.exitCode === null) child.kill('SIGKILL')
  })
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer]
  const url = chunk.toString().trim()

  for (const { path, body } of requests) {
    const text = JSON.stringify(body)
    expect(Buffer.byteLength(text)).toBeLessThan(320)
    const answer = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
    expect(answer.status).toBe(400)
    const json = (await answer.json()) as { error: { message: string } }
    expect(json.error.message).toMatch(/schema at #(\/properties\/b)?(\/items)+ /)
  }
  expect((await fetch(`${url}/v1/models`)).status).toBe(200)

  child.kill('SIGINT')
  const [code] = (await once(child, 'exit')) as [number | null]
  expect(code).toBe(0)
})
