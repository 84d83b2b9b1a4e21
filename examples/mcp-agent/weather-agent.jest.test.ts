import { expect, test } from '@jest/globals'
import { toolCall, type ModelRequest } from 'agent-doubles'
import { scriptedLLM, useFakeMcp, useFakeProxy } from 'agent-doubles/jest'
import { askWeatherAgent } from './weather-agent.js'

// One FakeProxy (the model; OPENAI_BASE_URL points at it while a test runs) and one FakeMcpServer
// (the tools) for the file: started before the tests, reset after each, closed at the end.
const proxy = useFakeProxy()
const mcp = useFakeMcp({
  name: 'weather',
  tools: {
    get_weather: {
      description: 'Current weather in a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      responses: { Paris: { sky: 'sunny', celsius: 24 } },
    },
  },
})

const sawToolResult = (req: ModelRequest) => req.messages.some((message) => message.content.some((part) => part.type === 'tool-result'))

test('the agent calls the MCP tool and answers (Jest)', async () => {
  proxy.use(scriptedLLM((req) => (sawToolResult(req) ? 'Sunny, 24°C in Paris.' : toolCall('get_weather', { city: 'Paris' }))))

  const answer = await askWeatherAgent('Weather in Paris?', { mcpUrl: mcp.url })

  expect(answer).toBe('Sunny, 24°C in Paris.')
  expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
  expect(proxy).toHaveReceivedToolResult('get_weather', expect.stringContaining('sunny'))
})
