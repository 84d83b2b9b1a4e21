/**
 * A research assistant on the Anthropic SDK: a tool-use loop (the model asks for `search`, the
 * program runs it and sends a `tool_result` back) and a streamed summary. The client is passed in,
 * so a test points it at the fake.
 */
import type Anthropic from '@anthropic-ai/sdk'

/** Where search results come from: a search API in production, a stub in tests. */
export type Search = (query: string) => Promise<string[]>

const tools: Anthropic.Tool[] = [
  {
    name: 'search',
    description: 'Search the web; returns the titles of the top results.',
    input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
]

/** Answers `question`, running each `search` the model asks for, until it answers in text. */
export async function research(client: Anthropic, question: string, search: Search, maxSteps = 5): Promise<string> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }]
  for (let step = 0; step < maxSteps; step++) {
    const reply = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, system: 'You research before answering.', tools, messages })
    messages.push({ role: 'assistant', content: reply.content })
    const calls = reply.content.filter((block) => block.type === 'tool_use')
    if (reply.stop_reason !== 'tool_use' || !calls.length) {
      return reply.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
    }
    const results: Anthropic.ToolResultBlockParam[] = []
    for (const call of calls) {
      const { query } = call.input as { query: string }
      results.push({ type: 'tool_result', tool_use_id: call.id, content: JSON.stringify(await search(query)) })
    }
    messages.push({ role: 'user', content: results })
  }
  throw new Error(`research: no answer after ${maxSteps} model calls`)
}

/** Streams a summary of `text`, calling `onText` with each piece as it arrives. */
export async function summarize(client: Anthropic, text: string, onText: (piece: string) => void): Promise<string> {
  const stream = client.messages.stream({ model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user', content: `Summarize: ${text}` }] })
  stream.on('text', onText)
  const message = await stream.finalMessage()
  return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
}
