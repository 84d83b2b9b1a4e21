import { expect, vi } from 'vitest'
import { toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { kitchen } from './recipe-flow.js'

const stocked = async (item: string) => ({ item, inStock: item !== 'saffron' })

test('the flow returns a recipe the model answered as JSON, validated by its schema', async ({ fakeProxy, scriptedLLM }) => {
  const recipe = { dish: 'risotto', minutes: 35, ingredients: ['rice', 'stock', 'parmesan'] }
  const llm = scriptedLLM([JSON.stringify(recipe)])
  fakeProxy.use(llm)

  await expect(kitchen(`${fakeProxy.url}/v1`, stocked).recipeFlow('risotto')).resolves.toEqual(recipe)
  expect(fakeProxy).toHaveReceivedRequests(1)
  expect(fakeProxy).toHaveReceivedRequest({ dialect: 'openai-chat', model: 'gpt-4o-mini' })
  // Genkit asks for JSON by sending the schema as the last user text, after the prompt.
  expect(fakeProxy).toHaveBeenCalledWithTask(expect.stringContaining('conform to the following schema'))
  expect(JSON.stringify(llm.requests[0]!.messages)).toContain('A recipe for risotto.')
})

test('the model calls the tool, Genkit runs it and sends the result back', async ({ fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('in_pantry', { item: 'saffron' }), 'No saffron: make it without.'])
  fakeProxy.use(llm)
  const pantry = vi.fn(stocked)

  const answer = await kitchen(`${fakeProxy.url}/v1`, pantry).ask('Can I cook paella tonight?')

  expect(answer).toBe('No saffron: make it without.')
  expect(pantry).toHaveBeenCalledWith('saffron')
  expect(fakeProxy).toHaveRequestedTool('in_pantry', { item: 'saffron' })
  expect(fakeProxy).toHaveReceivedToolResult('in_pantry', { item: 'saffron', inStock: false })
  expect(llm).toHaveConsumedAllTurns()
})
