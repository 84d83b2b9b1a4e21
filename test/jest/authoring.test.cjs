// The authoring features of SPEC §14 under Jest: tool order, budgets, snapshots, rules.
const { scriptedLLM, toolCall } = require('agent-doubles')

function failureOf(assertion) {
  try {
    assertion()
  } catch (error) {
    return error.message.replace(/\u001b\[[0-9;]*m/g, '')
  }
  throw new Error('expected the assertion to fail')
}

const user = (text) => ({ model: 'mock', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text }] }] })

test('toHaveCalledToolsInOrder: four modes and the actual sequence on failure', async () => {
  const llm = scriptedLLM([toolCall('search', { q: 'x' }), toolCall('book', { id: 1 }), 'done'])
  for (const text of ['a', 'b', 'c']) await llm.generate(user(text))
  expect(llm).toHaveCalledToolsInOrder(['search', 'book'], { mode: 'exact' })
  expect(llm).toHaveCalledToolsInOrder([{ name: 'book', args: { id: expect.any(Number) } }])
  expect(llm).toHaveCalledToolsInOrder(['book', 'search'], { mode: 'unordered' })
  expect(llm).toHaveCalledToolsInOrder(['book'], { mode: 'superset' })
  expect(llm).not.toHaveCalledToolsInOrder(['book', 'search'])
  const message = failureOf(() => expect(llm).toHaveCalledToolsInOrder(['book', 'search']))
  expect(message).toContain('Received tool calls, in order:\n  1st: search({"q": "x"})\n  2nd: book({"id": 1})')
  expect(() => expect(llm).toHaveCalledToolsInOrder([], { mode: 'any' })).toThrow(/option mode must be one of/)
})
