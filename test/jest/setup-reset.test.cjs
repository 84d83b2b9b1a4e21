// agent-doubles/jest/setup (setupFilesAfterEnv) resets every live double after each test and
// drops the ones a test made.
const { mockAgent, scriptedLLM } = require('agent-doubles/jest')

const moduleScoped = mockAgent({ '*': 'ok' }, { name: 'module_agent' })
const moduleLLM = scriptedLLM(['one', 'two'])
let madeInTest

test('a module-scope double records in one test', async () => {
  await moduleScoped('first task')
  await moduleLLM.generate({ model: 'm', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] })
  expect(moduleScoped).toHaveBeenCalledWithTask('first task')
  expect(moduleLLM).toHaveReceivedRequests(1)
  madeInTest = mockAgent('x', { name: 'made_in_test' })
  await madeInTest('y')
})

test('… and has no calls in the next; a script cursor is rewound', async () => {
  expect(moduleScoped.calls).toEqual([])
  expect(moduleScoped).not.toHaveBeenCalled()
  expect(moduleLLM).toHaveReceivedRequests(0)
  expect(moduleLLM.turnsRemaining).toBe(2)
  expect(madeInTest.calls).toEqual([])
})
