/**
 * A travel assistant on the `openai` SDK: it offers the model a `get_weather` tool, runs every
 * tool call the model makes, sends the results back, and repeats until the model answers in text.
 */
import type OpenAI from 'openai'
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions'

export interface Forecast {
  city: string
  sky: 'sunny' | 'cloudy' | 'rainy'
  celsius: number
}

/** Where forecasts come from: a weather API in production, a stub in tests. */
export type WeatherLookup = (city: string) => Promise<Forecast>

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'The current weather in a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
]

/** Answers a travel question, looking up the weather as the model asks. */
export async function askTravelAssistant(
  client: OpenAI,
  question: string,
  lookup: WeatherLookup,
  { model = 'gpt-4o-mini', maxSteps = 5 } = {},
): Promise<string> {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a concise travel assistant. Use get_weather for any weather question.' },
    { role: 'user', content: question },
  ]
  for (let step = 0; step < maxSteps; step++) {
    const completion = await client.chat.completions.create({ model, messages, tools })
    const reply = completion.choices[0].message
    messages.push(reply)
    if (!reply.tool_calls?.length) return reply.content ?? ''

    for (const call of reply.tool_calls) {
      // The model can name a tool we never offered; tell it so instead of crashing the loop.
      const result =
        call.type === 'function' && call.function.name === 'get_weather'
          ? await lookup((JSON.parse(call.function.arguments) as { city: string }).city)
          : { error: `unknown tool ${call.type === 'function' ? call.function.name : call.type}` }
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) })
    }
  }
  throw new Error(`travel assistant: no answer after ${maxSteps} model calls`)
}
