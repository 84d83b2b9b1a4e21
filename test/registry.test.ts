import { afterEach, expect, test } from 'vitest'
import { beginTestScope, closeAll, endTestScope, liveDoubles, registerDouble, type RegisteredDouble } from '../src/registry.js'

function double(): RegisteredDouble & { resets: number } {
  const made = { resets: 0, reset: () => void made.resets++ }
  registerDouble(made)
  return made
}

afterEach(() => closeAll())

test('a scope opened twice (setup hook and auto fixture, or two concurrent tests) ends with the last close', async () => {
  const shared = double()
  beginTestScope()
  beginTestScope()
  const madeInTest = double()

  await endTestScope()
  expect(shared.resets).toBe(0)
  expect(liveDoubles()).toContain(madeInTest)

  await endTestScope()
  expect(shared.resets).toBe(1)
  expect(liveDoubles()).not.toContain(madeInTest)
  expect(liveDoubles()).toContain(shared)
})

test('closeAll() at a file end clears a scope a failed hook left open', async () => {
  beginTestScope()
  await closeAll()
  const later = double()
  beginTestScope()
  await endTestScope()
  expect(later.resets).toBe(1)
})

test('a server double leaves the live set when it stops listening and rejoins when it starts again', async () => {
  const { FakeProxy, fakeMcpServer } = await import('../src/index.js')
  const proxy = new FakeProxy()
  const mcp = fakeMcpServer({ tools: { ping: { responses: 'pong' } } })
  const neverStarted = new FakeProxy()
  expect(liveDoubles()).toEqual(expect.arrayContaining([proxy, mcp, neverStarted]))

  await proxy.start()
  await mcp.start()
  // What a setup entry does at the end of a file: with `isolate: false` the next file of the
  // worker shares this registry, and must not reset (or hold) the last file's closed servers.
  await closeAll()
  expect(liveDoubles()).not.toContain(proxy)
  expect(liveDoubles()).not.toContain(mcp)
  // Served through proxy.fetch alone, it never listened: it is still reset after each test.
  expect(liveDoubles()).toContain(neverStarted)

  await proxy.start()
  await mcp.start()
  expect(liveDoubles()).toEqual(expect.arrayContaining([proxy, mcp]))
  const answer = await fetch(`${proxy.url}/v1/models`)
  expect(answer.status).toBe(200)
  expect(proxy.requests).toHaveLength(1)
  beginTestScope()
  await endTestScope()
  // Back in the live set, so the end of a test resets it again.
  expect(proxy.requests).toHaveLength(0)
  await proxy.close()
  await mcp.close()
  expect(liveDoubles()).not.toContain(proxy)
})
