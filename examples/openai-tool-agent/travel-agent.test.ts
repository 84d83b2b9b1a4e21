import OpenAI from 'openai'
import { expect, vi } from 'vitest'
import { PolicyDenied, proxyError, toolCall } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { askTravelAssistant, type Forecast } from './travel-agent.js'

// `fakeProxy` is a FakeProxy on 127.0.0.1; while a test runs, OPENAI_BASE_URL points at it, so the
// client needs no baseURL — only a key, which the SDK insists on and the fake ignores.
const sunnyParis = async (city: string): Promise<Forecast> => ({ city, sky: 'sunny', celsius: 24 })

test('looks up the weather, sends it back, and returns the answer', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.']))
  const lookup = vi.fn(sunnyParis)

  const answer = await askTravelAssistant(new OpenAI({ apiKey: 'test' }), 'Should I pack an umbrella for Paris?', lookup)

  expect(answer).toBe('It is sunny in Paris.')
  expect(lookup).toHaveBeenCalledWith('Paris')
  expect(fakeProxy).toHaveReceivedRequests(2)
  expect(fakeProxy).toHaveRequestedTool('get_weather', { city: 'Paris' })
  expect(fakeProxy).toHaveReceivedToolResult('get_weather', { sky: 'sunny', celsius: 24 })
  expect(fakeProxy).toHaveBeenCalledWithTask('Should I pack an umbrella for Paris?')
})

test('tells the model about a tool it does not have, and carries on', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM([toolCall('book_flight', { to: 'Paris' }), 'I can only check the weather.']))

  const answer = await askTravelAssistant(new OpenAI({ apiKey: 'test' }), 'Book me a flight to Paris', sunnyParis)

  expect(answer).toBe('I can only check the weather.')
  expect(fakeProxy).toHaveReceivedToolResult('book_flight', { error: 'unknown tool book_flight' })
})

test('survives a rate limit: the SDK retries and the agent still answers', async ({ fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.'])
  fakeProxy.use(llm).refuse('rate_limited')

  const answer = await askTravelAssistant(new OpenAI({ apiKey: 'test' }), 'Weather in Paris?', sunnyParis)

  expect(answer).toBe('It is sunny in Paris.')
  expect(fakeProxy).toHaveRefusedWith('rate_limited', { times: 1 })
  // The refused attempt never reached the model: it saw exactly the two calls of the loop.
  expect(llm).toHaveReceivedRequests(2)
  expect(llm).toHaveConsumedAllTurns()
})

test('a policy refusal is not retried: it surfaces as a typed PolicyDenied', async ({ fakeProxy, scriptedLLM }) => {
  const llm = scriptedLLM(['never sent'])
  fakeProxy.use(llm).refuse('policy_denied', { message: 'travel advice is disabled for this tenant' })

  const err = await askTravelAssistant(new OpenAI({ apiKey: 'test' }), 'Weather in Paris?', sunnyParis).catch((e: unknown) => e)

  expect(err).toBeInstanceOf(OpenAI.PermissionDeniedError)
  expect(err).toHaveRefusedWith('policy_denied')
  const refusal = proxyError(err)
  expect(refusal).toBeInstanceOf(PolicyDenied)
  expect(refusal).toMatchObject({ code: 'policy_denied', status: 403, message: expect.stringContaining('disabled for this tenant') })
  expect(fakeProxy).toHaveRefusedWith('policy_denied', { times: 1 })
  expect(llm).toHaveReceivedRequests(0)
})
