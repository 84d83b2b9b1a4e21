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
