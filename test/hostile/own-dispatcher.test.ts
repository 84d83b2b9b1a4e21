/**
 * SPEC §24, guard: a test that installs its own global dispatcher (`setGlobalDispatcher(new
 * Agent())`) and puts the original back left a key undici had made non-configurable, and the
 * guard's teardown threw `Cannot delete property 'Symbol(undici.globalDispatcher.2)'`. The gap
 * itself (fetch through the test's own Agent is not guarded) is documented with its workaround
 * in docs/reference/limits.md.
 */
import { expect, test } from 'vitest'
import { runChild } from '../child-figures.js'

test('the guard comes off cleanly after a test set its own global dispatcher and put the original back', async () => {
  const result = await runChild(new URL('./children/own-dispatcher.ts', import.meta.url), [])
  expect(result.teardown).toBe('ok')
  // Both keys still hold a dispatcher: Node's fetch and undici's both find one.
  expect(result.left).toEqual(['function', 'function'])
})
