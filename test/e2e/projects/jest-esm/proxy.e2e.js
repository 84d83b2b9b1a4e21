// Plain ESM: import (not require) the Jest entry and the real openai client.
import { expect, test } from '@jest/globals'
import OpenAI from 'openai'
import { mockAgent, useFakeProxy } from 'agent-doubles/jest'

const proxy = useFakeProxy({ agents: ['researcher'] })

test('runs as an ES module on the Node major the driver asked for', () => {
  expect(typeof require).toBe('undefined')
  expect(process.version.startsWith(`v${process.env.E2E_NODE}.`)).toBe(true)
})

test('useFakeProxy serves the real openai client; the matchers read it', async () => {
  const client = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0, defaultHeaders: { 'x-viper-agent': 'researcher' } })
  const completion = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hello esm' }] })
  expect(typeof completion.choices[0].message.content).toBe('string')
  expect(proxy).toHaveReceivedRequests(1)
  expect(proxy).toHaveBeenCalledWithTask('hello esm')
})

test('a MockAgent satisfies the spy matchers', async () => {
  const researcher = mockAgent({ weather: 'sunny' }, { name: 'researcher' })
  await researcher('weather today')
  expect(researcher).toHaveBeenCalledWith('weather today')
  expect(researcher).toHaveBeenCalledWithTask('weather today')
})
