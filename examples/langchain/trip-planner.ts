/**
 * A trip planner on LangChain chat models — `ChatOpenAI` or `ChatAnthropic`, the code does not
 * care which: a tool loop that looks up the weather, and a structured trip plan validated by zod.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { z } from 'zod'

export interface Forecast {
  city: string
  sky: 'sunny' | 'cloudy' | 'rainy'
  celsius: number
}

/** Where forecasts come from: a weather API in production, a stub in tests. */
export type WeatherLookup = (city: string) => Promise<Forecast>

/** Answers a question, running each `get_weather` call the model makes, until it answers in text. */
export async function askWithWeather(model: BaseChatModel, question: string, lookup: WeatherLookup, maxSteps = 5): Promise<string> {
  const getWeather = tool(async ({ city }) => JSON.stringify(await lookup(city)), {
    name: 'get_weather',
    description: 'The current weather in a city.',
    schema: z.object({ city: z.string() }),
  })
  if (!model.bindTools) throw new Error('trip planner: this chat model cannot call tools')
  const withTools = model.bindTools([getWeather])
  const messages: BaseMessage[] = [new SystemMessage('You are a concise travel assistant. Use get_weather for any weather question.'), new HumanMessage(question)]
  for (let step = 0; step < maxSteps; step++) {
    const reply = await withTools.invoke(messages)
    messages.push(reply)
    if (!reply.tool_calls?.length) return reply.text
    for (const call of reply.tool_calls) messages.push(await getWeather.invoke(call))
  }
  throw new Error(`trip planner: no answer after ${maxSteps} model calls`)
}

/** A trip plan, as the model must return it. */
export const TripPlan = z.object({
  city: z.string(),
  days: z.number().int().min(1),
  pack: z.array(z.string()),
})
export type TripPlan = z.infer<typeof TripPlan>

/** Asks the model for a plan in the `TripPlan` shape (LangChain validates it). */
export async function planTrip(model: BaseChatModel, request: string): Promise<TripPlan> {
  const planner = model.withStructuredOutput(TripPlan, { name: 'trip_plan' })
  return (await planner.invoke([new HumanMessage(request)])) as TripPlan
}
