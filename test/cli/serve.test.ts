import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import { afterEach, describe, expect, test } from 'vitest'
import { serve } from '../../src/cli/serve.js'
import type { FakeProxy } from '../../src/index.js'

const transcript = fileURLToPath(new URL('../transcripts/weather.jsonl', import.meta.url))
const cli = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

describe('serve()', () => {
  let proxy: FakeProxy | undefined
  afterEach(async () => {
    await proxy?.close()
    proxy = undefined
  })

  test('starts a proxy with the agents, strictness and transcript it is given, and prints its URL', async () => {
    const lines: string[] = []
    proxy = await serve(['serve', '--agents', 'researcher,writer', '--strict', '--transcript', transcript], (line) =>
      lines.push(line),
    )
    expect(lines).toEqual([proxy.url])

    const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const anonymous = client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    await expect(anonymous).rejects.toMatchObject({ status: 400, code: 'agent_required' })

    const researcher = new OpenAI({
      apiKey: 'k',
      baseURL: `${proxy.url}/v1`,
      maxRetries: 0,
      defaultHeaders: { 'x-viper-agent': 'researcher' },
    })
    const completion = await researcher.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    })
    expect(completion.choices[0].message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather' } })
    expect(proxy.requests).toHaveLength(1)
  })

  test('--port takes the port it names', async () => {
    const first = await serve(['serve'], () => {})
    const port = Number(new URL(first.url).port)
    await first.close()
    proxy = await serve(['serve', '--port', String(port)], () => {})
    expect(proxy.url).toBe(`http://127.0.0.1:${port}`)
  })

  test('bad arguments are a TypeError that shows the usage or names the value', async () => {
    await expect(serve(['start'], () => {})).rejects.toThrow(/Usage: agent-doubles serve/)
    await expect(serve(['serve', '--port', 'eighty'], () => {})).rejects.toThrow(/--port must be an integer.*eighty/)
    await expect(serve(['serve', '--nope'], () => {})).rejects.toThrow(/nope/)
    await expect(serve(['serve', '--record', 'x.jsonl'], () => {})).rejects.toThrow(/--record needs --upstream-openai URL or --upstream-anthropic URL/)
    await expect(serve(['serve', '--upstream-openai', 'http://127.0.0.1:9'], () => {})).rejects.toThrow(/need --record/)
  })
})

test('the command prints its URL, serves, and exits 0 on SIGINT', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], { stdio: ['ignore', 'pipe', 'pipe'] })
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer]
  const url = chunk.toString().trim()
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

  const models = await fetch(`${url}/v1/models`)
  expect(models.status).toBe(200)

  child.kill('SIGINT')
  const [code] = (await once(child, 'exit')) as [number | null]
  expect(code).toBe(0)
})
