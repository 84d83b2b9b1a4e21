/**
 * The matcher overview page's sample failures (docs/matchers/index.md) are the real ones: each failure below is produced by the
 * matchers, and its message (colours stripped) must appear verbatim in a `text` block of that page.
 */
import { readFileSync } from 'node:fs'
import OpenAI from 'openai'
import { afterEach, expect, test } from 'vitest'
import { installMatchers } from '../../matchers/index.js'
import { FakeProxy, mockAgent } from '../../src/index.js'

installMatchers(expect)
const readme = readFileSync(new URL('../../docs/matchers/index.md', import.meta.url), 'utf8')
const textBlocks = [...readme.matchAll(/```text\n([\s\S]*?)\n```/g)].map((match) => match[1])

function failureOf(assertion: () => unknown): string {
  try {
    assertion()
  } catch (error) {
    return (error as Error).message.replace(/\x1b\[[0-9;]*m/g, '')
  }
  throw new Error('expected the assertion to fail')
}

let proxy: FakeProxy | undefined
afterEach(() => proxy?.close())

test('the matcher overview page shows the real failure messages of the matchers', async () => {
  const researcher = mockAgent({ weather: 'sunny', market: 'bullish' }, { name: 'researcher' })
  await researcher('weather today')
  await researcher('market outlook')
  const once = mockAgent({ weather: 'sunny' }, { name: 'researcher' })
  await once('weather today')

  proxy = await new FakeProxy({ agents: ['researcher'] }).start()
  const client = (agent: string) =>
    new OpenAI({ apiKey: 'k', baseURL: `${proxy!.url}/v1`, maxRetries: 0, defaultHeaders: { 'x-viper-agent': agent } })
  const body = { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hello' }] }
  await expect(client('intruder').chat.completions.create(body)).rejects.toMatchObject({ status: 403 })
  const refusals = failureOf(() => expect(proxy).toHaveRefusedWith('rate_limited'))
  await client('researcher').chat.completions.create(body)

  const failures = [
    failureOf(() => expect(researcher).toHaveBeenCalledWithTask('weather')),
    failureOf(() => expect(once).not.toHaveBeenCalledWithTask(expect.stringContaining('weather'))),
    refusals,
    failureOf(() => expect(proxy).toHaveReceivedRequest({ model: 'gpt-4o' })),
  ]
  for (const message of failures) expect(textBlocks).toContain(message)
})
