import { expect, vi } from 'vitest'
import { toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { askTravelAgent, streamTravelAgent, type Forecast } from './travel-agent.js'

// The agent's runner takes the endpoint of its models: the fake's, with any key.
const endpoint = (url: string, api: 'responses' | 'chat' = 'responses') => ({ baseURL: `${url}/v1`, apiKey: 'test', api })
const sunny = async (city: string): Promise<Forecast> => ({ city, sky: 'sunny', celsius: 24 })

test.for(['responses', 'chat'] as const)('on the %s API: runs the tool the model asks for and answers', async (api, { fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'Sunny and 24 °C: no umbrella needed.'])
  fakeProxy.use(llm)
  const lookup = vi.fn(sunny)

  const answer = await askTravelAgent('Do I need an umbrella in Paris?', lookup, endpoint(fakeProxy.url, api))

  expect(answer).toBe('Sunny and 24 °C: no umbrella needed.')
  expect(lookup).toHaveBeenCalledWith('Paris')
  expect(fakeProxy).toHaveReceivedRequests(2)
  expect(fakeProxy).toHaveReceivedRequest({ dialect: api === 'chat' ? 'openai-chat' : 'openai-responses', model: 'gpt-4o-mini' })
  expect(fakeProxy).toHaveBeenCalledWithTask('Do I need an umbrella in Paris?')
  expect(fakeProxy).toHaveRequestedTool('get_weather', { city: 'Paris' })
  expect(fakeProxy).toHaveReceivedToolResult('get_weather', { sky: 'sunny', celsius: 24 })
  expect(llm).toHaveConsumedAllTurns()
})

test.for(['responses', 'chat'] as const)('on the %s API: streams the answer after the tool call', async (api, { fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM([toolCall('get_weather', { city: 'Oslo' }), 'Cold but dry in Oslo.']))

  const chunks = await streamTravelAgent('Weather in Oslo?', async (city) => ({ city, sky: 'cloudy', celsius: 2 }), endpoint(fakeProxy.url, api))

  expect(chunks.join('')).toBe('Cold but dry in Oslo.')
  expect(fakeProxy).toHaveReceivedRequest({ stream: true })
  expect(fakeProxy).toHaveReceivedToolResult('get_weather', { city: 'Oslo', sky: 'cloudy' })
})

test('a rate limit is retried by the client; the run still completes', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM(['Pack light.'])).refuse('rate_limited')

  const answer = await askTravelAgent('What should I pack?', sunny, endpoint(fakeProxy.url))

  expect(answer).toBe('Pack light.')
  expect(fakeProxy).toHaveRefusedWith('rate_limited', { times: 1 })
  expect(fakeProxy).toHaveReceivedRequests(1)
})
