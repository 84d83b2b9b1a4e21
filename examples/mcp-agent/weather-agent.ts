/**
 * A weather assistant on the OpenAI Agents SDK whose tools live behind an MCP server: it connects
 * to the server over Streamable HTTP, lets the model (OpenAI's Responses API, reached through the
 * SDK's default client, which reads OPENAI_BASE_URL and OPENAI_API_KEY) call its tools, and
 * returns the answer.
 */
import { Agent, MCPServerStreamableHttp, run } from '@openai/agents'

export interface WeatherAgentOptions {
  /** The MCP server with the weather tools, e.g. `http://localhost:3000/mcp`. */
  mcpUrl: string
}

export async function askWeatherAgent(question: string, { mcpUrl }: WeatherAgentOptions): Promise<string> {
  const weather = new MCPServerStreamableHttp({ url: mcpUrl, name: 'weather' })
  await weather.connect()
  try {
    const agent = new Agent({
      name: 'Weather assistant',
      instructions: 'Answer questions about the weather using the weather tools.',
      model: 'gpt-5-mini',
      mcpServers: [weather],
    })
    const result = await run(agent, question)
    return String(result.finalOutput)
  } finally {
    await weather.close()
  }
}
