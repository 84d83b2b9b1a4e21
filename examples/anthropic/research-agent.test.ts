import Anthropic from '@anthropic-ai/sdk'
import { expect, vi } from 'vitest'
import { toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { research, summarize } from './research-agent.js'

// The Anthropic SDK takes the server's root as its base URL: this test's lane is fakeProxy.url.
const anthropic = (url: string) => new Anthropic({ apiKey: 'test', baseURL: url, maxRetries: 0 })

test('runs the search the model asks for and answers from its results', async ({ fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('search', { query: 'tallest tower in Paris' }), 'The Eiffel Tower, at 330 m.'])
  fakeProxy.use(llm)
  const search = vi.fn(async () => ['Eiffel Tower — 330 m', 'Tour Montparnasse — 210 m'])

  const answer = await research(anthropic(fakeProxy.url), 'What is the tallest tower in Paris?', search)

  expect(answer).toBe('The Eiffel Tower, at 330 m.')
  expect(search).toHaveBeenCalledWith('tallest tower in Paris')
  expect(fakeProxy).toHaveReceivedRequest({ dialect: 'anthropic-messages', model: 'claude-sonnet-4-5' })
  expect(fakeProxy).toHaveCalledToolsInOrder(['search'], { mode: 'exact' })
  expect(fakeProxy).toHaveReceivedToolResult('search', ['Eiffel Tower — 330 m', 'Tour Montparnasse — 210 m'])
  expect(fakeProxy).toHaveSentValidRequests()
  expect(llm).toHaveConsumedAllTurns()
})

test('streams the summary piece by piece', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM(['Paris has one very tall tower.']))
  const pieces: string[] = []

  const summary = await summarize(anthropic(fakeProxy.url), 'A long article about towers.', (piece) => pieces.push(piece))

  expect(summary).toBe('Paris has one very tall tower.')
  // The fake streams word by word, as Server-Sent Events the SDK parses.
  expect(pieces.length).toBeGreaterThan(1)
  expect(pieces.join('')).toBe(summary)
  expect(fakeProxy).toHaveBeenCalledWithTask('Summarize: A long article about towers.')
})
