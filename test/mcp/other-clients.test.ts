import { createMCPClient } from '@ai-sdk/mcp'
import { MCPServerStreamableHttp } from '@openai/agents'
import { generateText, stepCountIs } from 'ai'
import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { fakeMcpServer, scriptedLLM, toolCall, type FakeMcpServer } from '../../src/index.js'
import '../matchers/setup-expect.js'

const open: { close(): Promise<void> }[] = []
// Clients first, then the servers they talk to.
afterEach(async () => {
  for (const item of open.splice(0)) await item.close()
})

async function weatherServer(): Promise<FakeMcpServer> {
  const mcp = await fakeMcpServer({
    name: 'weather',
    tools: {
      get_weather: {
        description: 'Current weather in a city',
        inputSchema: z.object({ city: z.string() }),
        responses: { Paris: { sky: 'sunny', celsius: 24 }, '*': new Error('no station there') },
      },
    },
    resources: { 'file:///notes.md': 'remember the umbrella' },
  }).start()
  open.push(mcp)
  return mcp
}

describe('the AI SDK MCP client (@ai-sdk/mcp)', () => {
  test('lists the tools and runs them inside a generateText loop', async () => {
    const mcp = await weatherServer()
    const client = await createMCPClient({ transport: { type: 'http', url: mcp.url } })
    open.unshift(client)
    expect(client.serverInfo).toMatchObject({ name: 'weather' })
    const tools = await client.tools()
    expect(Object.keys(tools)).toEqual(['get_weather'])

    const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'Sunny, 24°C in Paris.'])
    const result = await generateText({ model: llm.languageModel(), tools, stopWhen: stepCountIs(3), prompt: 'Weather in Paris?' })

    expect(result.text).toBe('Sunny, 24°C in Paris.')
    expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
    expect(llm).toHaveReceivedToolResult('get_weather')
    expect(JSON.stringify(result.steps[0].toolResults[0].output)).toContain('sunny')
  })

  test('an Error answer reaches it as an isError result; resources read', async () => {
    const mcp = await weatherServer()
    const client = await createMCPClient({ transport: { type: 'http', url: mcp.url } })
    open.unshift(client)
    const tools = await client.tools()
    const output = await tools.get_weather.execute({ city: 'Oslo' }, { toolCallId: 'call_1', messages: [] })
    expect(output).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no station there' }] })
    await expect(client.readResource({ uri: 'file:///notes.md' })).resolves.toMatchObject({
      contents: [{ text: 'remember the umbrella' }],
    })
    expect(mcp).toHaveCalledMcpToolTimes('get_weather', 1)
  })
})

describe('@openai/agents MCPServerStreamableHttp', () => {
  test('connects, lists and calls tools, reads resources', async () => {
    const mcp = await weatherServer()
    const server = new MCPServerStreamableHttp({ url: mcp.url, name: 'weather' })
    await server.connect()
    open.unshift(server)

    const tools = await server.listTools()
    expect(tools).toEqual([expect.objectContaining({ name: 'get_weather', inputSchema: expect.objectContaining({ required: ['city'] }) })])
    const content = await server.callTool('get_weather', { city: 'Paris' })
    expect(content).toEqual([{ type: 'text', text: '{"sky":"sunny","celsius":24}' }])
    await expect(server.readResource('file:///notes.md')).resolves.toMatchObject({ contents: [{ text: 'remember the umbrella' }] })

    expect(mcp).toHaveCalledMcpTool('get_weather', { city: 'Paris' })
    expect(mcp.calls[0].session).toBe(server.sessionId)
  })

  test('arguments failing the schema come back as the tool error text, for the model to correct', async () => {
    const mcp = await weatherServer()
    const server = new MCPServerStreamableHttp({ url: mcp.url, name: 'weather' })
    await server.connect()
    open.unshift(server)
    const result = await server.callToolResult('get_weather', { town: 'Paris' })
    expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('Invalid arguments for tool get_weather: city') }] })
  })
})
