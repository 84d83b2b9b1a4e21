// Imported before a setup entry, so the guard it installs at load wraps the safety net rather
// than the real fetch: a guard bug cannot reach a real provider. Its afterAll, registered before
// the setup entry's, runs after them (after-hooks run in reverse): it checks that the setup entry
// put back the exact fetch it found, then puts back the real one.
import { afterAll, expect } from 'vitest'
import { isNetworkGuardInstalled } from '../../src/guard/network-guard.js'
import { installSafetyNet } from './helpers.js'

export const netAtLoad = installSafetyNet()

afterAll(() => {
  expect(isNetworkGuardInstalled()).toBe(false)
  expect(globalThis.fetch).toBe(netAtLoad.fetch)
  netAtLoad.restore()
})
