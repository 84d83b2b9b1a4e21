/**
 * The guard's quick pass: a route that says, from a dispatch's origin and path, that it leaves a
 * request alone (the fixtures' route, for a test's own lane, SPEC §9) has the request sent on
 * without its URL being built or the route being asked. Anything else is decided as before.
 */
import { createServer, type Server } from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { withQuickPass } from '../../src/guard/route-reason.js'

let server: Server
let origin = ''
beforeAll(async () => {
  server = createServer((req, res) => res.end(`seen ${req.url}`))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('no address')
  origin = `http://127.0.0.1:${address.port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

test('a request the route passes quickly is sent on without asking the route; others still ask it', async () => {
  const asked: string[] = []
  const route = withQuickPass(
    (url: URL) => {
      asked.push(url.pathname)
      return url.pathname === '/elsewhere' ? `${origin}/routed` : undefined
    },
    (requestOrigin, path) => requestOrigin === origin && path.startsWith('/~'),
  )
  const uninstall = installNetworkGuard({ route })
  try {
    expect(await (await fetch(`${origin}/~1/v1/models?x=1`)).text()).toBe('seen /~1/v1/models?x=1')
    expect(asked).toEqual([])
    // Not quick: the route is asked, and its answer still routes the request.
    expect(await (await fetch(`${origin}/elsewhere`)).text()).toBe('seen /routed')
    expect(asked).toEqual(['/elsewhere'])
    // Another origin with the same path is not the route's to pass quickly.
    await fetch(`http://localhost:${new URL(origin).port}/~1/again`).then((response) => response.text())
    expect(asked).toEqual(['/elsewhere', '/~1/again'])
  } finally {
    uninstall()
  }
})

test('a later install whose route has no quick pass is asked about every request', async () => {
  const asked: string[] = []
  const first = installNetworkGuard({ route: withQuickPass(() => undefined, () => true) })
  const second = installNetworkGuard({
    route: (url) => {
      asked.push(url.pathname)
      return undefined
    },
  })
  try {
    await (await fetch(`${origin}/~2/v1/models`)).text()
    expect(asked).toEqual(['/~2/v1/models'])
  } finally {
    second()
    first()
  }
})
