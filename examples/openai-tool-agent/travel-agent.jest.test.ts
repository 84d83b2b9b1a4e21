import { describe, expect, test } from '@jest/globals'
import OpenAI from 'openai'
import { toolCall } from 'agent-doubles'
import { scriptedLLM, useFakeProxy } from 'agent-doubles/jest'
import { askTravelAssistant } from './travel-agent.js'

// One FakeProxy for the file: started before the tests, reset after each, closed at the end.
// While a test runs OPENAI_BASE_URL points at it, so `new OpenAI()` needs only a key.
const proxy = useFakeProxy()
const sunny = async (city: string) => ({ city, sky: 'sunny' as const, celsius: 24 })

describe('travel assistant under Jest', () => {
  test('runs the weather tool and answers', async () => {
    proxy.use(scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.']))

    const answer = await askTravelAssistant(new OpenAI({ apiKey: 'test' }), 'Weather in Paris?', sunny)

    expect(answer).toBe('It is sunny in Paris.')
    expect(proxy).toHaveReceivedRequests(2)
    expect(proxy).toHaveReceivedToolResult('get_weather', { city: 'Paris', sky: 'sunny' })
  })

  test('retries a rate limit; the previous test left nothing behind', async () => {
    expect(proxy).toHaveReceivedRequests(0)
    proxy.use(scriptedLLM(['No tools needed.'])).refuse('rate_limited')

    const answer = await askTravelAssistant(new OpenAI({ apiKey: 'test' }), 'Hello', sunny)

    expect(answer).toBe('No tools needed.')
    expect(proxy).toHaveRefusedWith('rate_limited', { times: 1 })
  })
})
