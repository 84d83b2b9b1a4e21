// The small pieces under the hooks: the URL a dispatch is for, the Host header of a routed
// request, and a refusal delivered to a handler of either of undici's handler APIs.
import * as undici from 'undici'
import { afterEach, expect, test } from 'vitest'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { dispatchUrl } from '../../src/routing/dispatcher.js'
import { withHost } from '../../src/routing/host-header.js'
import { globalDispatcher } from '../guard/helpers.js'

let uninstall: (() => void) | undefined
afterEach(() => {
  uninstall?.()
  uninstall = undefined
})

test('dispatchUrl joins origin and path as text, and adds query', () => {
  expect(dispatchUrl({ origin: 'https://api.openai.com', path: '/v1/models', method: 'GET' })?.href).toBe('https://api.openai.com/v1/models')
  // A path starting with `//` stays a path: it does not name another host.
  expect(dispatchUrl({ origin: new URL('https://api.openai.com/'), path: '//evil.test/x', method: 'GET' })?.href).toBe('https://api.openai.com//evil.test/x')
  expect(dispatchUrl({ origin: 'http://127.0.0.1:1', path: '/a?x=1', method: 'GET', query: { y: [2, 3], z: 'w' } })?.search).toBe('?x=1&y=2&y=3&z=w')
  expect(dispatchUrl({ path: '/a', method: 'GET' })).toBeUndefined()
  expect(dispatchUrl({ origin: 'not a url', path: '/a', method: 'GET' })).toBeUndefined()
})

test('withHost replaces a Host header in every form headers come in, and leaves others alone', () => {
  expect(withHost({ Host: 'api.openai.com', accept: 'x' }, '127.0.0.1:9')).toEqual({ Host: '127.0.0.1:9', accept: 'x' })
  expect(withHost(['host', 'api.openai.com', 'accept', 'x'], '127.0.0.1:9')).toEqual(['host', '127.0.0.1:9', 'accept', 'x'])
  expect(withHost([['HOST', 'a'], ['accept', 'x']], 'b')).toEqual([['HOST', 'b'], ['accept', 'x']])
  expect(withHost(new Map([['host', 'a']]), 'b')).toEqual([['host', 'b']])
  const untouched = { accept: 'x' }
  expect(withHost(untouched, 'b')).toBe(untouched)
  expect(withHost(undefined, 'b')).toBeUndefined()
})

test('a refusal reaches a handler of either undici handler API', async () => {
  uninstall = installNetworkGuard()
  const guarded = globalDispatcher() as undici.Dispatcher
  // The newer API only: no onError.
  const viaNewApi = await new Promise<unknown>((resolve) => {
    guarded.dispatch({ origin: 'https://api.openai.com', path: '/v1/models', method: 'GET' }, {
      onRequestStart() {},
      onResponseStart() {},
      onResponseData() {},
      onResponseEnd() {},
      onResponseError: (controller, error) => resolve({ aborted: controller.aborted, error }),
    })
  })
  expect(viaNewApi).toMatchObject({ aborted: true, error: { code: 'AGENT_DOUBLES_REAL_MODEL_CALL' } })
  // An interceptor composed above the guard, as undici.request reaches it.
  const seen: string[] = []
  const composed = guarded.compose((dispatch) => (options, handler) => {
    seen.push(`${options.method} ${options.path}`)
    return dispatch(options, handler)
  })
  await expect(undici.request('https://api.openai.com/v1/models', { dispatcher: composed })).rejects.toMatchObject({
    code: 'AGENT_DOUBLES_REAL_MODEL_CALL',
  })
  expect(seen).toEqual(['GET /v1/models'])
})
