// The repair loop under seeded chaos, in Jest: the file's proxy injects faults from a fixed seed,
// keyed by each test's full name, so every run meets the same ones.
import { describe, expect, test } from '@jest/globals'
import { scriptedLLM, toolCall } from 'agent-doubles'
import { useFakeProxy } from 'agent-doubles/jest'
import { askWeather } from './repair-agent.js'

const proxy = useFakeProxy({
  llm: scriptedLLM((req) => (req.messages.at(-1)?.role === 'tool' ? 'It is sunny in Paris.' : toolCall('get_weather', { city: 'Paris' }))),
  chaos: { seed: 42, rate: 0.5, kinds: ['invalid_tool_args', 'unknown_tool', 'refusal', 'empty', 'truncated', 'rate_limit', 'disconnect'] },
})

describe('the weather agent under chaos', () => {
  test('answers despite broken calls, refusals and provider errors', async () => {
    expect(await askWeather('Weather in Paris?', `${proxy.url}/v1`)).toBe('It is sunny in Paris.')
    expect(proxy.requests.some((request) => request.fault !== undefined)).toBe(true)
  })
})
