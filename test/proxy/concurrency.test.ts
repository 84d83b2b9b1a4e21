import { describe, expect, test } from 'vitest'
import { listLLM, startProxy, text } from './helpers.js'

// A load test: on a busy machine (the quick loop runs Jest beside Vitest) it needs more than the
// default 15 s, never less.
describe('FakeProxy under concurrency', { timeout: 60_000 }, () => {
  test('500 concurrent requests are all answered and all recorded, none lost or mixed up', async () => {
    const proxy = await startProxy({ llm: listLLM(text('ok')) })
    const count = 500
    const answers = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const stream = i % 2 === 0
        const res = await fetch(`${proxy.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-viper-agent': `agent-${i % 7}` },
          body: JSON.stringify({ model: `model-${i}`, stream, messages: [{ role: 'user', content: `request ${i}` }] }),
        })
        return { status: res.status, text: await res.text() }
      }),
    )
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const requests = proxy.requests
    expect(requests).toHaveLength(count)
    const models = requests.map((r) => r.model).sort()
    expect(models).toEqual(Array.from({ length: count }, (_, i) => `model-${i}`).sort())
    for (const r of requests) {
      const i = Number(r.model?.slice('model-'.length))
      expect(r.agent).toBe(`agent-${i % 7}`)
      expect(r.stream).toBe(i % 2 === 0)
      expect(r.request.messages[0].content[0]).toEqual({ type: 'text', text: `request ${i}` })
    }
    const ids = new Set(answers.filter((_, i) => i % 2 === 1).map((a) => (JSON.parse(a.text) as { id: string }).id))
    expect(ids.size).toBe(count / 2)
  })
})
