/**
 * A support agent as a LangGraph.js graph: a model node that may call tools, a tool node that runs
 * them, and an edge back to the model until it answers in text — the loop LangGraph's docs build
 * by hand. The chat model is passed in, so a test points it at the fake.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models'
import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages'
import { tool } from '@langchain/core/tools'
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph'
import { ToolNode } from '@langchain/langgraph/prebuilt'
import { z } from 'zod'

/** Where order statuses come from: the shop's API in production, a stub in tests. */
export type OrderLookup = (orderId: string) => Promise<{ orderId: string; status: string }>

/** Builds the graph around a chat model and an order lookup. */
export function supportGraph(model: BaseChatModel, lookup: OrderLookup) {
  const orderStatus = tool(async ({ orderId }) => JSON.stringify(await lookup(orderId)), {
    name: 'order_status',
    description: 'The status of an order, by its id.',
    schema: z.object({ orderId: z.string() }),
  })
  if (!model.bindTools) throw new Error('support graph: this chat model cannot call tools')
  const withTools = model.bindTools([orderStatus])

  const callModel = async (state: typeof MessagesAnnotation.State) => ({
    messages: [await withTools.invoke([new SystemMessage('You answer questions about orders.'), ...state.messages])],
  })
  // Back to the model after tools run; done when its last message calls no tool.
  const next = (state: typeof MessagesAnnotation.State) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? 'tools' : END)

  return new StateGraph(MessagesAnnotation)
    .addNode('agent', callModel)
    .addNode('tools', new ToolNode([orderStatus]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', next, ['tools', END])
    .addEdge('tools', 'agent')
    .compile()
}

/** Runs the graph on one question and returns the model's final text. */
export async function askSupport(model: BaseChatModel, lookup: OrderLookup, question: string): Promise<string> {
  const result = await supportGraph(model, lookup).invoke({ messages: [new HumanMessage(question)] })
  return result.messages.at(-1)!.text
}
