// The `test` of agent-doubles/vitest, without the setup entry and with `interceptProviders: false`:
// the guard stays off (SPEC §8 puts it in the setup entries).
import { expect } from 'vitest'
import { test } from '../../fixtures/vitest.js'
import { isNetworkGuardInstalled } from '../../src/guard/network-guard.js'
import { globalDispatcher } from './helpers.js'

const dispatcherAtLoad = globalDispatcher()

test.override({ fakeProxyOptions: { interceptProviders: false } })

test('the fakeProxy fixture with interceptProviders: false installs no guard', ({ fakeProxy }) => {
  expect(fakeProxy.url).toMatch(/^http:\/\/127\.0\.0\.1:/)
  expect(isNetworkGuardInstalled()).toBe(false)
  expect(globalDispatcher()).toBe(dispatcherAtLoad)
})
