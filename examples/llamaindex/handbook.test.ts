import { OpenAI, OpenAIEmbedding } from '@llamaindex/openai'
import { expect, vi } from 'vitest'
import { toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { askConcierge, askHandbook } from './handbook.js'

// Both models reach this test's lane of the fake through their base URL; the key is any string.
const chat = (url: string) => new OpenAI({ model: 'gpt-4o-mini', apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 })
const embeddings = (url: string) => new OpenAIEmbedding({ model: 'text-embedding-3-small', apiKey: 'test', baseURL: `${url}/v1`, maxRetries: 0 })

test('retrieval: the handbook page is embedded, retrieved and handed to the chat model', async ({ fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM(['Check-out is at 11:00.'])
  fakeProxy.use(llm)

  const answer = await askHandbook(['Check-out is at 11:00 on the day you leave.'], 'When is check-out?', {
    llm: chat(fakeProxy.url),
    embedModel: embeddings(fakeProxy.url),
  })

  expect(answer).toBe('Check-out is at 11:00.')
  // The page and the question were embedded on OpenAI's embeddings route…
  expect(fakeProxy).toHaveReceivedRequest({ dialect: 'openai-embeddings', model: 'text-embedding-3-small' })
  // …and the chat model got the question with the retrieved page in its prompt.
  expect(fakeProxy).toHaveReceivedRequest({ dialect: 'openai-chat', model: 'gpt-4o-mini' })
  expect(llm.requests).toHaveLength(1)
  expect(JSON.stringify(llm.requests[0]!.messages)).toContain('Check-out is at 11:00 on the day you leave.')
  expect(JSON.stringify(llm.requests[0]!.messages)).toContain('When is check-out?')
})

test('agent: the tool call runs and its result goes back to the model', async ({ fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('free_rooms', { date: '2026-06-01' }), 'Three rooms are free on June 1.'])
  fakeProxy.use(llm)
  const lookup = vi.fn(async (date: string) => ({ date, free: 3 }))

  const answer = await askConcierge(chat(fakeProxy.url), lookup, 'Any rooms on 2026-06-01?')

  expect(answer).toBe('Three rooms are free on June 1.')
  expect(lookup).toHaveBeenCalledWith('2026-06-01')
  expect(fakeProxy).toHaveBeenCalledWithTask('Any rooms on 2026-06-01?')
  expect(fakeProxy).toHaveRequestedTool('free_rooms', { date: '2026-06-01' })
  // LlamaIndex sends a tool's output back as its own pretty-printed text (`free: 3`), not as JSON.
  expect(fakeProxy).toHaveReceivedToolResult('free_rooms', expect.stringContaining('free: 3'))
  expect(llm).toHaveConsumedAllTurns()
})
