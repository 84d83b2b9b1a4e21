// Runs after 2-proxy.spec.ts in the same worker (isolate: false, one worker, files in name order).
import { expect, test } from 'vitest'
import type { FakeProxy } from 'agent-doubles'

test('the proxy the previous file left running was closed when that file ended', async () => {
  const left = (globalThis as Record<string, unknown>).__e2eProxy as { proxy: FakeProxy; url: string } | undefined
  expect(left?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(() => left!.proxy.url).toThrow(/not running/)
  await expect(fetch(`${left!.url}/v1/models`)).rejects.toThrow()
})
