import { expect } from 'vitest'
import { ErrorInfo } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { briefing } from './pipeline.js'

test('a briefing goes research → write → review', async ({ mockAgent }) => {
  const researcher = mockAgent({ solar: 'panels got 20% cheaper', '*': 'no data' }, { name: 'researcher' })
  const writer = mockAgent('Solar is cheaper than ever.', { name: 'writer', inputTokens: 100, outputTokens: 40 })
  const critic = mockAgent('approved', { name: 'critic' })

  const result = await briefing('solar', { researcher, writer, critic })

  expect(result).toHaveText('Solar is cheaper than ever.')
  expect(researcher).toHaveBeenCalledWithTask('research: solar')
  expect(writer).toHaveBeenCalledWithTask(expect.stringContaining('panels got 20% cheaper'))
  expect(critic).toHaveBeenCalledTimes(1)
  // writer 100/40 direct; researcher and critic 10/20 each, nested.
  expect(result).toHaveUsage({ inputTokens: 120, outputTokens: 80 })
})

test('the writer revises once when the critic asks', async ({ mockAgent }) => {
  const researcher = mockAgent('facts', { name: 'researcher' })
  const writer = mockAgent(['draft one', 'draft two'], { name: 'writer' })
  const critic = mockAgent({ 'draft one': 'revise: add numbers', '*': 'approved' }, { name: 'critic' })

  const result = await briefing('solar', { researcher, writer, critic })

  expect(result).toHaveText('draft two')
  expect(writer).toHaveBeenLastCalledWithTask('revise the briefing on solar: revise: add numbers')
  expect(writer).toHaveBeenCalledTimes(2)
})

test('a failed research step stops the pipeline', async ({ mockAgent }) => {
  const researcher = mockAgent(new ErrorInfo({ type: 'Timeout', message: 'search timed out', retryable: true }), {
    name: 'researcher',
  })
  const writer = mockAgent('unused', { name: 'writer' })
  const critic = mockAgent('unused', { name: 'critic' })

  const result = await briefing('solar', { researcher, writer, critic })

  expect(result).toBeErrorEnvelope({ type: 'Timeout', retryable: true })
  expect(writer).not.toHaveBeenCalled()
})
