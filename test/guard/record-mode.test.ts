// Record mode forwards to the real upstream by request, on a dispatcher of its own: the guard
// (and a route to the fake) never sees its forwarding, while the client's request is routed.
import OpenAI from 'openai'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { routeProvidersTo } from '../../src/guard/provider-hosts.js'
import { ScriptedLLM } from '../../src/llm/scripted-llm.js'
import { startProxy } from '../proxy/helpers.js'
import { tempDir, transcriptLines } from '../proxy/record/mount.js'
import { withDefaultBaseUrls } from './helpers.js'

const uninstalls: Array<() => void> = []
afterEach(() => {
  for (const uninstall of uninstalls.splice(0)) uninstall()
})

test('a recording FakeProxy reaches its upstream past the guard, even with a route that would hijack it', async () => {
  const upstream = await startProxy({ llm: new ScriptedLLM({ hello: 'Hello from upstream.' }) })
  const file = join(await tempDir(), 'run.jsonl')
  const recorder = await startProxy({ upstream: { openai: upstream.url }, record: file })
  const consulted: string[] = []
  const toRecorder = routeProvidersTo(recorder.url)
  uninstalls.push(
    installNetworkGuard(),
    installNetworkGuard({
      route: (url) => {
        consulted.push(url.href)
        // Anything on the global dispatcher bound for the upstream would land on a closed port.
        return url.origin === upstream.url ? 'http://127.0.0.1:9/hijacked' : toRecorder(url)
      },
    }),
  )

  const client = withDefaultBaseUrls(() => new OpenAI({ apiKey: 'sk-test', maxRetries: 0 }))
  const chat = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] })
  expect(chat.choices[0]?.message.content).toBe('Hello from upstream.')
  expect(consulted).toEqual(['https://api.openai.com/v1/chat/completions'])
  expect(recorder.requests.length).toBe(1)
  expect(upstream.requests.length).toBe(1)
  expect((await transcriptLines(file)).length).toBe(1)
})
