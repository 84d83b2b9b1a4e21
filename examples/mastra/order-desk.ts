/**
 * A Mastra agent that answers questions about orders, looking them up with a tool. The model is
 * given as Mastra's OpenAI-compatible config — `{ id, url, apiKey }` — so a test points `url` at
 * the fake; with a plain model id (`'openai/gpt-4o-mini'`) Mastra's OpenAI provider reads
 * `OPENAI_BASE_URL` and `OPENAI_API_KEY`, which the `fakeProxy` fixture sets while a test runs.
 */
import { Agent } from '@mastra/core/agent'
import { createTool } from '@mastra/core/tools'
import { z } from 'zod'

/** Where an order's status comes from: the order service in production, a stub in tests. */
export type OrderLookup = (orderId: string) => Promise<{ orderId: string; status: string }>

/** The model: a Mastra model id, or an OpenAI-compatible endpoint (`url` ends in `/v1`). */
export type OrderDeskModel = `${string}/${string}` | { id: `${string}/${string}`; url: string; apiKey: string }

/** Builds the order desk's agent on `model`, with `lookup` behind its `order_status` tool. */
export function orderDesk(model: OrderDeskModel, lookup: OrderLookup): Agent {
  const orderStatus = createTool({
    id: 'order_status',
    description: 'The current status of an order, by its id.',
    inputSchema: z.object({ orderId: z.string() }),
    outputSchema: z.object({ orderId: z.string(), status: z.string() }),
    execute: async ({ context }) => lookup(context.orderId),
  })

  return new Agent({
    name: 'order-desk',
    instructions: 'You answer questions about orders. Look an order up with order_status before answering.',
    model,
    tools: { order_status: orderStatus },
  })
}
