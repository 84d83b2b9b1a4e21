// Imported before a setup entry, so the guard it installs at load wraps the safety net rather
// than the real dispatcher: a guard bug cannot reach a real provider. Its afterAll, registered
// before the setup entry's, runs after them (after-hooks run in reverse): it checks that the
// setup entry put back the exact dispatcher it found, then puts back the real one.
import { afterAll, expect } from 'vitest'
import { isNetworkGuardInstalled } from '../../src/guard/network-guard.js'
import { globalDispatcher, installSafetyNet } from './helpers.js'

export const netAtLoad = installSafetyNet()

afterAll(async () => {
  expect(isNetworkGuardInstalled()).toBe(false)
  expect(globalDispatcher()).toBe(netAtLoad.dispatcher)
  await netAtLoad.restore()
})
