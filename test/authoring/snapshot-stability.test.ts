// A snapshot file written by a real run holds on the next run, on another port, on another day
// (the prompt carries the current time): two child Vitest runs of one spec that uses the setup
// entry, the first writing the file, the second (as CI, which never writes) comparing against it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { describeRun, fromRoot, node20, repoRoot, runChild, vitest4Bin } from '../e2e/helpers.js'

const dir = mkdtempSync(join(repoRoot, 'test/authoring/.stability-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const spec = `
import OpenAI from 'openai'
import { expect, test } from 'vitest'
import { FakeProxy, scriptedLLM, toolCall } from ${JSON.stringify(fromRoot('src/index.ts'))}

test('conversation', async () => {
  await using proxy = await new FakeProxy().start({ port: Number(process.env.PROXY_PORT) })
  proxy.use(scriptedLLM([toolCall('lookup', { q: 'news' }), 'Done.']))
  const client = new OpenAI({ apiKey: 'test', baseURL: proxy.url + '/v1', maxRetries: 0 })
  const messages = [{ role: 'system', content: 'Now: ' + process.env.NOW + ' (' + process.env.NOW_MS + '), served by ' + proxy.url }, { role: 'user', content: 'Any news?' }]
  const first = await client.chat.completions.create({ model: 'gpt-5', messages, tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }] })
  const call = first.choices[0].message.tool_calls[0]
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'id ' + call.id + ' at ' + process.env.NOW })
  await client.chat.completions.create({ model: 'gpt-5', messages })
  expect(proxy).toMatchSnapshot()
  expect(proxy.requests[1]).toMatchSnapshot()
})
`

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

test('snapshot files are stable across runs, ports and dates', async () => {
  writeFileSync(join(dir, 'conversation.spec.ts'), spec)
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.spec.ts'], setupFiles: [${JSON.stringify(fromRoot('fixtures/vitest-setup.ts'))}] } }\n`,
  )
  const run = (port: number, now: Date, extra: string[], env: Record<string, string>) =>
    runChild(node20, [vitest4Bin, 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs'), ...extra], {
      env: { PROXY_PORT: String(port), NOW: now.toISOString(), NOW_MS: String(now.getTime()), ...env },
      timeoutMs: 60_000,
    })
  const [firstPort, secondPort] = [await freePort(), await freePort()]
  expect(firstPort).not.toBe(secondPort)

  const first = await run(firstPort, new Date('2026-11-30T10:00:00Z'), ['-u'], {})
  expect(first.code, describeRun(first)).toBe(0)
  const snapshotFile = join(dir, '__snapshots__', 'conversation.spec.ts.snap')
  const written = readFileSync(snapshotFile, 'utf8')
  expect(written).toContain('system: Now: <date> (<timestamp>), served by http://127.0.0.1:<port>')
  expect(written).toContain('tool lookup: id <id 1> at <date>')
  expect(written).not.toContain(String(firstPort))

  const second = await run(secondPort, new Date('2027-03-14T23:59:59Z'), [], { CI: '1' })
  expect(second.code, describeRun(second)).toBe(0)
  expect(second.output).toMatch(/Tests\s+1 passed/)
  expect(readFileSync(snapshotFile, 'utf8')).toBe(written)
}, 120_000)
