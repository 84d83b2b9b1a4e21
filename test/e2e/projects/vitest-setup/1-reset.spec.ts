// Plain `vitest` imports; the setup entry (setupFiles) registers the matchers and resets doubles.
import { expect, test } from 'vitest'
import { mockAgent, scriptedLLM, type ModelRequest } from 'agent-doubles'

const researcher = mockAgent({ weather: 'sunny', '*': 'no data' }, { name: 'researcher' })
const llm = scriptedLLM(['first answer', 'second answer'])
const hi: ModelRequest = { model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }

test('runs on the Node major the driver asked for', () => {
  expect(`v${process.env.E2E_NODE}.`).toBe(process.version.slice(0, process.version.indexOf('.') + 1))
})

test('test 1 calls the module-scope doubles', async () => {
  const envelope = await researcher('weather today')
  expect(envelope.text()).toBe('sunny')
  expect(researcher).toHaveBeenCalledWithTask('weather today')
  expect(researcher).toHaveBeenCalledTimes(1)
  const reply = await llm.generate(hi)
  expect(JSON.stringify(reply)).toContain('first answer')
})

test('test 2 sees none of those calls, and the sequence starts again', async () => {
  expect(researcher.calls).toEqual([])
  expect(researcher).not.toHaveBeenCalledWithTask('weather today')
  expect(researcher).toHaveBeenCalledTimes(0)
  expect(llm).toHaveReceivedRequests(0)
  const reply = await llm.generate(hi)
  expect(JSON.stringify(reply)).toContain('first answer')
})
