/**
 * A customer-support agent on the Vercel AI SDK: the model may look up orders through one tool
 * and gets up to five steps (model call → tool runs → model call …) to answer.
 */
import { generateText, stepCountIs, tool, type LanguageModel } from 'ai'
import { z } from 'zod'

export interface OrderStatus {
  orderId: string
  status: 'processing' | 'shipped' | 'delivered'
  eta?: string
}

/** The shop's order system: a real API in production, a stub in tests. */
export interface Shop {
  orderStatus(orderId: string): Promise<OrderStatus>
}

/** The tools the agent offers the model, bound to a shop. */
export function supportTools(shop: Shop) {
  return {
    get_order_status: tool({
      description: 'The status and delivery estimate of an order, by its id (like A-1042).',
      // The SDK validates the model's arguments against this schema before `execute` runs,
      // so a malformed id goes back to the model as an error instead of reaching the shop.
      inputSchema: z.object({ orderId: z.string().regex(/^A-\d+$/) }),
      execute: ({ orderId }) => shop.orderStatus(orderId),
    }),
  }
}

export interface SupportAnswer {
  text: string
  /** How many model calls it took. */
  steps: number
}

/** Answers a customer's message, looking up orders as the model asks. */
export async function answerCustomer(model: LanguageModel, shop: Shop, message: string): Promise<SupportAnswer> {
  const result = await generateText({
    model,
    system: 'You are a friendly support agent for an online shop. Look orders up before answering about them.',
    prompt: message,
    tools: supportTools(shop),
    stopWhen: stepCountIs(5),
  })
  return { text: result.text, steps: result.steps.length }
}
