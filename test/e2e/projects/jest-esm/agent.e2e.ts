// TypeScript as an ES module, through the transform the config names.
import { expect, jest, test } from '@jest/globals'
import { Envelope, mockAgent, type MockAgent } from 'agent-doubles'

const writer: MockAgent = mockAgent({ draft: 'a first draft', '*': 'done' }, { name: 'writer' })

test('types, one-off overrides and the runner\'s own spy matchers', async () => {
  const spy = jest.spyOn(writer, 'run')
  spy.mockResolvedValueOnce(new Envelope({ payload: 'overridden' }))
  const first: Envelope = await writer.run('draft the intro')
  expect(first.text()).toBe('overridden')
  expect((await writer('draft the outro')).text()).toBe('a first draft')
  expect(writer).toHaveBeenCalledTimes(2)
  expect(writer).toHaveBeenNthCalledWith(1, 'draft the intro')
  expect(writer).toHaveBeenLastCalledWithTask('draft the outro')
})

test('the setup entry reset the agent after the last test', () => {
  expect(writer).not.toHaveBeenCalled()
})
