// The repair loop under seeded chaos: with a fixed seed, every run of this test meets the same
// faults on the same requests — and the agent still answers. Rerun the failing case of a random
// seed with AGENT_DOUBLES_CHAOS_SEED=<the seed the failure printed>.
import { describe } from 'vitest'
import { expect, test } from 'agent-doubles/vitest'
import { scriptedLLM, toolCall } from 'agent-doubles'
import { askWeather } from './repair-agent.js'

test.override({
  fakeProxyOptions: { chaos: { seed: 42, rate: 0.5, kinds: ['invalid_tool_args', 'unknown_tool', 'refusal', 'empty', 'truncated', 'rate_limit', 'disconnect'] } },
})

describe('the weather agent under chaos', () => {
  test('answers despite broken calls, refusals and provider errors', async ({ fakeProxy }) => {
    // The model: call the tool, then answer from its result.
    fakeProxy.use(scriptedLLM((req) => (req.messages.at(-1)?.role === 'tool' ? 'It is sunny in Paris.' : toolCall('get_weather', { city: 'Paris' }))))
    expect(await askWeather('Weather in Paris?', `${fakeProxy.url}/v1`)).toBe('It is sunny in Paris.')
    // The same seed, the same faults: this test always meets these.
    const faults = fakeProxy.requests.flatMap((request) => (request.fault ? [request.fault.kind] : []))
    expect(faults.slice(0, 2)).toEqual(['refusal', 'rate_limit'])
  })
})
