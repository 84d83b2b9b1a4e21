/**
 * A travel agent on the OpenAI Agents SDK (`@openai/agents`): one agent with a `get_weather`
 * tool, run on either OpenAI API — Responses or Chat Completions — and answered in full or streamed.
 */
import { Agent, OpenAIProvider, Runner, tool } from '@openai/agents'
import { z } from 'zod'

export interface Forecast {
  city: string
  sky: 'sunny' | 'cloudy' | 'rainy'
  celsius: number
}

/** Where forecasts come from: a weather API in production, a stub in tests. */
export type WeatherLookup = (city: string) => Promise<Forecast>

export interface TravelAgentOptions {
  /** The OpenAI-compatible endpoint (a gateway in production, the fake in tests). */
  baseURL: string
  apiKey?: string
  /** Which OpenAI API the agent talks to. @default 'responses' */
  api?: 'responses' | 'chat'
  model?: string
}

/** The agent: instructions and the weather tool. */
export function travelAgent(lookup: WeatherLookup, model: string) {
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
    model,
  })
}

/** A runner whose models live at `baseURL`, on the Responses or the Chat Completions API. */
function runner({ baseURL, apiKey = process.env.OPENAI_API_KEY, api = 'responses' }: TravelAgentOptions): Runner {
  return new Runner({ modelProvider: new OpenAIProvider({ baseURL, apiKey, useResponses: api === 'responses' }) })
}

/** Answers a travel question; the SDK runs the tool calls the model makes. */
export async function askTravelAgent(question: string, lookup: WeatherLookup, options: TravelAgentOptions): Promise<string> {
  const result = await runner(options).run(travelAgent(lookup, options.model ?? 'gpt-4o-mini'), question)
  return String(result.finalOutput ?? '')
}

/** The same, streamed: resolves with the text chunks in the order they arrived. */
export async function streamTravelAgent(question: string, lookup: WeatherLookup, options: TravelAgentOptions): Promise<string[]> {
  const stream = await runner(options).run(travelAgent(lookup, options.model ?? 'gpt-4o-mini'), question, { stream: true })
  const chunks: string[] = []
  for await (const text of stream.toTextStream()) chunks.push(text)
  await stream.completed
  return chunks
}
