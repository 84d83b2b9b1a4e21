// A weather agent that survives a bad day: the SDK retries provider errors and dropped
// connections; the agent's own loop repairs what the model gets wrong — arguments that are not
// JSON or break the schema, a tool that does not exist, an empty, refused, filtered or cut-short
// answer — by telling the model what was wrong and asking again, a few times at most.
import OpenAI from 'openai'

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
  },
]

function weather(city: string): string {
  return `sunny in ${city}`
}

/** Arguments of get_weather, or why they are wrong. */
function readArgs(text: string): { city: string } | string {
  let args: unknown
  try {
    args = JSON.parse(text)
  } catch {
    return `arguments are not JSON: ${text}`
  }
  const city = (args as { city?: unknown } | null)?.city
  return typeof city === 'string' ? { city } : 'arguments must be {"city": string}'
}

export async function askWeather(question: string, baseURL?: string, attempts = 8): Promise<string> {
  const client = new OpenAI({ apiKey: 'test', baseURL, maxRetries: 3 })
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: question }]
  for (let attempt = 0; attempt < attempts; attempt++) {
    let completion: OpenAI.ChatCompletion
    try {
      completion = await client.chat.completions.create({ model: 'gpt-5', messages, tools })
    } catch (error) {
      // What the SDK's own retries did not absorb (a malformed body, say): ask again.
      if (error instanceof OpenAI.APIError || error instanceof SyntaxError || error instanceof OpenAI.APIConnectionError) continue
      throw error
    }
    const choice = completion.choices[0]
    const calls = (choice.message.tool_calls ?? []).filter((call) => call.type === 'function')
    if (calls.length > 0) {
      messages.push({ role: 'assistant', content: null, tool_calls: calls })
      const seen = new Set<string>()
      for (const call of calls) {
        // Two calls under one id cannot both be answered: the repeats are dropped.
        if (seen.has(call.id)) continue
        seen.add(call.id)
        const args = call.function.name === 'get_weather' ? readArgs(call.function.arguments) : `there is no tool ${call.function.name}`
        messages.push({ role: 'tool', tool_call_id: call.id, content: typeof args === 'string' ? `error: ${args}` : weather(args.city) })
      }
      continue
    }
    const text = choice.message.content ?? ''
    // Refused, filtered, cut short or empty: not an answer; ask again.
    if (choice.finish_reason !== 'stop' || choice.message.refusal || text.trim() === '') continue
    return text
  }
  throw new Error(`no answer after ${attempts} attempts`)
}
