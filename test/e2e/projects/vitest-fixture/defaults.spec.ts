// Same fixture, no override: this file's proxy is not strict and answers with the default brain,
// so the other file's options did not leak here.
import OpenAI from 'openai'
import type { MockAgent } from 'agent-doubles'
import { expect, test } from 'agent-doubles/vitest'

let kept: MockAgent | undefined

test('the default options: a request naming no agent is answered', async ({ fakeProxy }) => {
  const openai = new OpenAI({ apiKey: 'test', maxRetries: 0 })
  const completion = await openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'weather?' }] })
  expect(typeof completion.choices[0].message.content).toBe('string')
  expect(completion.choices[0].message.content).not.toBe('sunny in Paris')
  expect(fakeProxy).not.toHaveRefusedWith('agent_required')
})

test('mockAgent from the fixture is reset and dropped when its test ends', async ({ mockAgent }) => {
  const agent = mockAgent({ '*': 'ok' }, { name: 'made_in_test' })
  await agent('first')
  expect(agent).toHaveBeenCalledWithTask('first')
  kept = agent
})

test('… so the next test finds it with no calls', () => {
  expect(kept?.calls).toEqual([])
})
