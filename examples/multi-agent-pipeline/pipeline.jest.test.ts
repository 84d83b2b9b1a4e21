import { describe, expect, test } from '@jest/globals'
import { mockAgent } from 'agent-doubles/jest'
import { briefing } from './pipeline.js'

// The same pipeline under Jest: `mockAgent` comes from agent-doubles/jest, the matchers and the
// reset between tests from agent-doubles/jest/setup (see examples/jest.config.cjs).
const researcher = mockAgent({ solar: 'panels got 20% cheaper', '*': 'no data' }, { name: 'researcher' })
const writer = mockAgent(['draft one', 'draft two'], { name: 'writer' })
const critic = mockAgent({ 'draft one': 'revise: add numbers', '*': 'approved' }, { name: 'critic' })

describe('briefing under Jest', () => {
  test('revises once when the critic asks', async () => {
    const result = await briefing('solar', { researcher, writer, critic })

    expect(result).toHaveText('draft two')
    expect(writer).toHaveBeenCalledTimes(2)
    expect(critic).toHaveBeenCalledWithTask(expect.stringContaining('draft one'))
  })

  test('starts from a clean slate: the setup entry reset every double after the last test', async () => {
    expect(writer).not.toHaveBeenCalled()
    const result = await briefing('wind', { researcher, writer, critic })
    expect(researcher).toHaveBeenCalledWith('research: wind')
    expect(result).toHaveText('draft two')
  })
})
