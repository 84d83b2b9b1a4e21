import { expect } from 'vitest'
import { z } from 'zod'
import { toolCall, type ModelRequest } from 'agent-doubles'
import { test } from 'agent-doubles/vitest'
import { askWeatherAgent } from './weather-agent.js'

// The model (FakeProxy, through the `fakeProxy` fixture, which points OPENAI_BASE_URL at it while a
// test runs) and the tool server (a FakeMcpServer from the `fakeMcp` fixture) are both doubles: the
// whole agent loop runs on 127.0.0.1.
const weatherTools = {
  get_weather: {
    description: 'Current weather in a city',
    inputSchema: z.object({ city: z.string() }),
    responses: { Paris: { sky: 'sunny', celsius: 24 }, '*': new Error('no station in that city') },
  },
}

/** The text of the last tool result the agent sent back to the model, if any. */
function lastToolResult(req: ModelRequest): string | undefined {
  const results = req.messages.flatMap((message) => message.content).filter((part) => part.type === 'tool-result')
  const last = results.at(-1)
  return last === undefined ? undefined : typeof last.result === 'string' ? last.result : JSON.stringify(last.result)
}

/** A model that asks for the weather in Paris, then answers with what the tool said. */
const forecaster = (req: ModelRequest) => {
  const result = lastToolResult(req)
  return result === undefined ? toolCall('get_weather', { city: 'Paris' }) : `The forecast for Paris: ${result}`
}

test('the agent calls the MCP tool and answers with its result', async ({ fakeProxy, fakeMcp, scriptedLLM }) => {
  const mcp = await fakeMcp({ name: 'weather', tools: weatherTools })
  fakeProxy.use(scriptedLLM(forecaster))

  const answer = await askWeatherAgent('Do I need an umbrella in Paris?', { mcpUrl: mcp.url })

  expect(answer).toMatch(/^The forecast for Paris: .*"sky":"sunny"/)
  expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
  expect(mcp).toHaveCalledMcpToolTimes('get_weather', 1)
  expect(fakeProxy).toHaveReceivedToolResult('get_weather', expect.stringContaining('"sky":"sunny"'))
  expect(fakeProxy).toHaveReceivedRequests(2)
  expect(fakeProxy).toHaveReceivedRequest({ path: '/v1/responses' })
})

test('a failing tool reaches the model as an error it can explain', async ({ fakeProxy, fakeMcp, scriptedLLM }) => {
  const mcp = await fakeMcp({ name: 'weather', tools: weatherTools })
  fakeProxy.use(
    scriptedLLM((req) => (lastToolResult(req) === undefined ? toolCall('get_weather', { city: 'Atlantis' }) : 'I could not get the weather there.')),
  )

  const answer = await askWeatherAgent('Weather in Atlantis?', { mcpUrl: mcp.url })

  expect(answer).toBe('I could not get the weather there.')
  expect(mcp.calls[0].error?.message).toBe('no station in that city')
  expect(fakeProxy).toHaveReceivedToolResult('get_weather', expect.stringContaining('no station in that city'))
})
