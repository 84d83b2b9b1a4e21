// Record mode forwards to the real upstream by request: it passes the guard, and a route to the
// fake (interceptProviders) does not send the proxy's own forwarding back to itself.
import OpenAI from 'openai'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { routeProvidersTo } from '../../src/guard/provider-hosts.js'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'
import { startProxy } from '../proxy/helpers.js'
import { tempDir, transcriptLines } from '../proxy/record/mount.js'
import { installSafetyNet, type SafetyNet } from './helpers.js'

let net: SafetyNet | undefined
const uninstalls: Array<() => void> = []
afterEach(() => {
  for (const uninstall of uninstalls.splice(0)) uninstall()
  net?.restore()
})

test('a recording FakeProxy reaches its upstream through the guard, even with a route on', async () => {
  // The "real" api.openai.com is a local FakeProxy: the safety net sends its traffic there.
  const upstream = await startProxy({ llm: new ScriptedLLM({ hello: 'Hello from upstream.' }) })
  const realFetch = globalThis.fetch
  net = installSafetyNet((url, request) => {
    if (url.hostname === '127.0.0.1') return realFetch(request)
    if (url.hostname !== 'api.openai.com') throw new Error(`safety net: ${url.href}`)
    return realFetch(new Request(`${upstream.url}${url.pathname}${url.search}`, request))
  })
  const file = join(await tempDir(), 'run.jsonl')
  const recorder = await startProxy({ upstream: { openai: 'https://api.openai.com' }, record: file })
  uninstalls.push(installNetworkGuard(), installNetworkGuard({ route: routeProvidersTo(recorder.url) }))

  const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${recorder.url}/v1`, maxRetries: 0 })
  const chat = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] })
  expect(chat.choices[0]?.message.content).toBe('Hello from upstream.')
  expect(net.calls).toEqual([`POST ${recorder.url}/v1/chat/completions`, 'POST https://api.openai.com/v1/chat/completions'])
  expect(upstream.requests.length).toBe(1)
  expect((await transcriptLines(file)).length).toBe(1)
})
