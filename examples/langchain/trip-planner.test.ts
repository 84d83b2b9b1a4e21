import { ChatAnthropic } from '@langchain/anthropic'
import { ChatOpenAI } from '@langchain/openai'
import { expect, vi } from 'vitest'
import { toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { askWithWeather, planTrip, type Forecast } from './trip-planner.js'

// Both LangChain models reach the fake through their base URL; the key is any string.
const models = {
  ChatOpenAI: (url: string) => new ChatOpenAI({ model: 'gpt-4o-mini', apiKey: 'test', configuration: { baseURL: `${url}/v1` } }),
  ChatAnthropic: (url: string) => new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'test', anthropicApiUrl: url }),
}
const chatModels = Object.keys(models) as (keyof typeof models)[]
const rainy = async (city: string): Promise<Forecast> => ({ city, sky: 'rainy', celsius: 12 })

test.for(chatModels)('%s: the tool loop runs get_weather and returns the answer', async (name, { fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('get_weather', { city: 'London' }), 'Rain in London: take an umbrella.'])
  fakeProxy.use(llm)
  const lookup = vi.fn(rainy)

  const answer = await askWithWeather(models[name](fakeProxy.url), 'Umbrella for London?', lookup)

  expect(answer).toBe('Rain in London: take an umbrella.')
  expect(lookup).toHaveBeenCalledWith('London')
  expect(fakeProxy).toHaveReceivedRequest({ dialect: name === 'ChatOpenAI' ? 'openai-chat' : 'anthropic-messages' })
  expect(fakeProxy).toHaveBeenCalledWithTask('Umbrella for London?')
  expect(fakeProxy).toHaveRequestedTool('get_weather', { city: 'London' })
  expect(fakeProxy).toHaveReceivedToolResult('get_weather', { sky: 'rainy', celsius: 12 })
  expect(llm).toHaveConsumedAllTurns()
})

test.for(chatModels)('%s: a structured plan comes back parsed and validated', async (name, { fakeProxy, scriptedLLM }) => {
  const plan = { city: 'Lisbon', days: 3, pack: ['sunscreen', 'sandals'] }
  // The model answers in the shape the client asked for: ChatOpenAI sends a JSON schema and reads
  // JSON text; ChatAnthropic offers a trip_plan tool and reads its arguments.
  fakeProxy.use(scriptedLLM([name === 'ChatOpenAI' ? JSON.stringify(plan) : toolCall('trip_plan', plan)]))

  await expect(planTrip(models[name](fakeProxy.url), 'Three days in Lisbon')).resolves.toEqual(plan)
  expect(fakeProxy).toHaveReceivedRequests(1)
  expect(fakeProxy).toHaveBeenCalledWithTask('Three days in Lisbon')
})
