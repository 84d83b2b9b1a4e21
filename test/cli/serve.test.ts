import { fileURLToPath } from 'node:url'
import OpenAI from 'openai'
import { afterEach, describe, expect, test } from 'vitest'
import { serve as serveOrHelp } from '../../src/cli/serve.js'
import type { FakeProxy } from '../../src/index.js'

const transcript = fileURLToPath(new URL('../transcripts/weather.jsonl', import.meta.url))
/** serve() for argument lists that start a proxy. */
async function serve(argv: string[], log: (line: string) => void): Promise<FakeProxy> {
  const proxy = await serveOrHelp(argv, log)
  if (!proxy) throw new Error(`serve(${argv.join(' ')}) printed the help instead of starting`)
  return proxy
}

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
    await expect(serve(['serve', '--nope'], () => {})).rejects.toThrow(/unknown option --nope\n\nUsage: agent-doubles serve/)
    await expect(serve(['serve', '--port'], () => {})).rejects.toThrow(/--port needs a value/)
    await expect(serve(['serve', 'extra'], () => {})).rejects.toThrow(/unexpected argument "extra"/)
    await expect(serve(['serve', '--script', 'a.json', '--rules', 'b.json'], () => {})).rejects.toThrow(/--script and --rules each choose the brain; give one/)
    await expect(serve(['serve', '--script', 'no-such-file.json'], () => {})).rejects.toThrow(/serve --script: cannot read no-such-file\.json/)
    await expect(serve(['serve', '--record', 'x.jsonl'], () => {})).rejects.toThrow(/--record needs --upstream-openai URL or --upstream-anthropic URL/)
    await expect(serve(['serve', '--upstream-openai', 'http://127.0.0.1:9'], () => {})).rejects.toThrow(/need --record/)
  })
})
