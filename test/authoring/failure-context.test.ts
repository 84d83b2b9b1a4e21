// Failure context: when a test that used the fakeProxy fixture fails, the conversation its lane
// saw is shown with the failure (masked, last 20 turns); a passing test shows nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { describeRun, fromRoot, node20, node24, repoRoot, runChild, vitest4Bin, vitest5Bin } from '../e2e/helpers.js'

const dir = mkdtempSync(join(repoRoot, 'test/authoring/.stability-failure-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const spec = `
import OpenAI from 'openai'
import { expect } from 'vitest'
import { test } from ${JSON.stringify(fromRoot('fixtures/vitest.ts'))}
import { toolCall } from ${JSON.stringify(fromRoot('src/index.ts'))}

const run = async (url) => {
  const client = new OpenAI({ apiKey: 'k', baseURL: url + '/v1', maxRetries: 0 })
  const messages = [{ role: 'system', content: 'You book trips on ' + new Date().toISOString() }, { role: 'user', content: 'Book Paris' }]
  const first = await client.chat.completions.create({ model: 'gpt-5', messages, tools: [{ type: 'function', function: { name: 'book', parameters: { type: 'object' } } }] })
  const call = first.choices[0].message.tool_calls[0]
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'booked' })
  return (await client.chat.completions.create({ model: 'gpt-5', messages })).choices[0].message.content
}

test('fails after two model calls', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM([toolCall('book', { city: 'Paris' }), 'Booked Paris.']))
  expect(await run(fakeProxy.url)).toBe('Booked Rome.')
})

test('passes quietly', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM([toolCall('book', { city: 'Oslo' }), 'Booked Oslo.']))
  expect(await run(fakeProxy.url)).toBe('Booked Oslo.')
})
`

const runners = [
  { name: 'Vitest 4', node: async () => node20, bin: vitest4Bin },
  { name: 'Vitest 5', node: node24, bin: vitest5Bin },
]

test.each(runners)('$name: a failing test shows the conversation its lane saw; a passing one does not', async ({ node, bin }) => {
  writeFileSync(join(dir, 'trip.spec.ts'), spec)
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.spec.ts'] } }\n`)
  const result = await runChild(await node(), [bin, 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs')], { timeoutMs: 60_000 })
  expect(result.code, describeRun(result)).toBe(1)
  expect(result.output).toContain(
    [
      '[agent-doubles] the conversation fakeProxy saw in "fails after two model calls":',
      '  #1 POST /v1/chat/completions · openai-chat · model "gpt-5"',
      '    system: You book trips on <date>',
      '    tools offered: book',
      '    user: Book Paris',
      '    reply: book({"city":"Paris"})',
      '  #2 POST /v1/chat/completions · openai-chat · model "gpt-5"',
      '    tool book: booked',
      '    reply: Booked Paris.',
    ].join('\n'),
  )
  expect(result.output).not.toContain('saw in "passes quietly"')
}, 90_000)
