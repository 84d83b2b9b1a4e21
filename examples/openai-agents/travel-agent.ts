/**
 * A travel agent on the OpenAI Agents SDK (`@openai/agents`): one agent with a `get_weather`
 * tool, run on either OpenAI API — Responses or Chat Completions — and answered in full or streamed.
 */
import { Agent, OpenAIChatCompletionsModel, OpenAIResponsesModel, run, tool } from '@openai/agents'
import type OpenAI from 'openai'
import { z } from 'zod'

export interface Forecast {
  city: string
  sky: 'sunny' | 'cloudy' | 'rainy'
  celsius: number
}

/** Where forecasts come from: a weather API in production, a stub in tests. */
export type WeatherLookup = (city: string) => Promise<Forecast>

export interface TravelAgentOptions {
  /** Which OpenAI API the agent talks to. @default 'responses' */
  api?: 'responses' | 'chat'
  model?: string
}

/** The agent: instructions, the weather tool, and a model on the given client. */
export function travelAgent(client: OpenAI, lookup: WeatherLookup, { api = 'responses', model = 'gpt-4o-mini' }: TravelAgentOptions = {}) {
  const getWeather = tool({
    name: 'get_weather',
    description: 'The current weather in a city.',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => lookup(city),
  })
  return new Agent({
    name: 'travel_assistant',
    instructions: 'You are a concise travel assistant. Use get_weather for any weather question.',
    tools: [getWeather],
    model: api === 'chat' ? new OpenAIChatCompletionsModel(client, model) : new OpenAIResponsesModel(client, model),
  })
}

/** Answers a travel question; the SDK runs the tool calls the model makes. */
export async function askTravelAgent(client: OpenAI, question: string, lookup: WeatherLookup, options?: TravelAgentOptions): Promise<string> {
  const result = await run(travelAgent(client, lookup, options), question)
  return String(result.finalOutput ?? '')
}

/** The same, streamed: resolves with the text chunks in the order they arrived. */
export async function streamTravelAgent(client: OpenAI, question: string, lookup: WeatherLookup, options?: TravelAgentOptions): Promise<string[]> {
  const stream = await run(travelAgent(client, lookup, options), question, { stream: true })
  const chunks: string[] = []
  for await (const text of stream.toTextStream()) chunks.push(text)
  await stream.completed
  return chunks
}
