/**
 * A packing assistant on the `@anthropic-ai/sdk` client: it checks the weather at the
 * destination through a tool, then says what to pack. Its tests replay a recorded conversation
 * (weather.jsonl) instead of calling a model.
 */
import type Anthropic from '@anthropic-ai/sdk'

/** Where forecasts come from: a weather API in production, a stub in tests. */
export type WeatherLookup = (city: string) => Promise<{ city: string; sky: string; celsius: number }>

export const SYSTEM = 'You help travellers pack. Check the weather at the destination before advising.'

const tools: Anthropic.Tool[] = [
  {
    name: 'get_weather',
    description: 'The current weather in a city.',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
]

/** Advises what to pack for a trip, looking up the weather as the model asks. */
export async function packingAdvice(
  client: Anthropic,
  trip: string,
  lookup: WeatherLookup,
  { model = 'claude-sonnet-4-6', maxSteps = 4 } = {},
): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: trip }]
  for (let step = 0; step < maxSteps; step++) {
    const message = await client.messages.create({ model, max_tokens: 1024, system: SYSTEM, tools, messages })
    messages.push({ role: 'assistant', content: message.content })
    if (message.stop_reason !== 'tool_use') {
      return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
    }

    const results: Anthropic.ToolResultBlockParam[] = []
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue
      const { city } = block.input as { city: string }
      results.push({ type: 'tool_result', tool_use_id: block.id, content: JSON.stringify(await lookup(city)) })
    }
    messages.push({ role: 'user', content: results })
  }
  throw new Error(`packing assistant: no answer after ${maxSteps} model calls`)
}
