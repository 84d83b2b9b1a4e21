/**
 * Two LlamaIndex.TS programs on OpenAI models: a question answered from a small handbook
 * (embeddings for retrieval, then a chat model that answers from the retrieved text), and an
 * agent that calls a tool. The models are passed in, so a test points them at the fake.
 */
import type { BaseEmbedding } from '@llamaindex/core/embeddings'
import { OpenAIAgent, type OpenAI } from '@llamaindex/openai'
import { Document, Settings, tool, VectorStoreIndex } from 'llamaindex'
import { z } from 'zod'

/** Indexes the handbook's pages and answers `question` from the closest ones. */
export async function askHandbook(pages: string[], question: string, models: { llm: OpenAI; embedModel: BaseEmbedding }): Promise<string> {
  // LlamaIndex reads its models from Settings; set them for this call only.
  return Settings.withLLM(models.llm, () =>
    Settings.withEmbedModel(models.embedModel, async () => {
      const index = await VectorStoreIndex.fromDocuments(pages.map((text) => new Document({ text })))
      const answer = await index.asQueryEngine({ similarityTopK: 1 }).query({ query: question })
      return answer.toString()
    }),
  )
}

/** Where room availability comes from: the booking system in production, a stub in tests. */
export type RoomLookup = (date: string) => Promise<{ date: string; free: number }>

/** An agent that answers booking questions, calling `free_rooms` when it needs availability. */
export async function askConcierge(llm: OpenAI, lookup: RoomLookup, question: string): Promise<string> {
  const freeRooms = tool({
    name: 'free_rooms',
    description: 'How many rooms are free on a date (YYYY-MM-DD).',
    parameters: z.object({ date: z.string() }),
    execute: async ({ date }) => lookup(date),
  })
  const agent = new OpenAIAgent({ llm, tools: [freeRooms] })
  const response = await agent.chat({ message: question })
  return String(response.message.content)
}
