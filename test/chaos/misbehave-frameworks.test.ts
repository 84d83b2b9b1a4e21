/**
 * SPEC §19: what agent frameworks make of each misbehaviour, through a FakeProxy on real HTTP —
 * `@openai/agents` (Agent + Runner with a tool, over Chat Completions and over Responses) and
 * LangChain (`ChatOpenAI` with `bindTools`, invoked and streamed, and LangGraph's prebuilt
 * ReAct agent). Each case asserts the framework's real behaviour, surprising ones included.
 */
import { HumanMessage, ToolMessage, type AIMessageChunk } from '@langchain/core/messages'
import { tool as langchainTool } from '@langchain/core/tools'
import { createReactAgent } from '@langchain/langgraph/prebuilt'
import { ChatOpenAI } from '@langchain/openai'
import { Agent, ModelBehaviorError, ModelRefusalError, OpenAIProvider, Runner, setTracingDisabled, tool } from '@openai/agents'
import { beforeAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { misbehaviourKinds, scriptedLLM, type MisbehaviourKind } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { openaiFor, startProxy } from '../proxy/helpers.js'

const SUNNY = 'It is sunny.'
const PARSE_ERROR = 'An error occurred while parsing tool arguments. Please try again with valid JSON.'
const RUN_ERROR = 'An error occurred while running the tool. Please try again.'

/** A proxy whose next model request misbehaves as `kind`; later ones answer "It is sunny.". */
async function misbehaving(kind: MisbehaviourKind, times = 1): Promise<FakeProxy> {
  const proxy = await startProxy({ llm: scriptedLLM(() => SUNNY) })
  proxy.misbehave(kind, { times })
  return proxy
}

/** The text of the tool result the framework sent back on the second request, if any. */
function toolResultSent(proxy: FakeProxy): unknown {
  const last = proxy.requests[1]?.request.messages.at(-1)
  const part = last?.role === 'tool' ? last.content[0] : undefined
  return part?.type === 'tool-result' ? part.result : undefined
}

describe.each(['chat completions', 'responses'] as const)('@openai/agents over %s', (api) => {
  beforeAll(() => setTracingDisabled(true))

  async function runAgent(kind: MisbehaviourKind) {
    const proxy = await misbehaving(kind)
    let toolRuns = 0
    const getWeather = tool({ name: 'get_weather', description: 'The weather in a city', parameters: z.object({ city: z.string() }), execute: async () => (toolRuns++, 'sunny') })
    const agent = new Agent({ name: 'Forecaster', instructions: 'Be brief.', model: 'gpt-4o', tools: [getWeather] })
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: openaiFor(proxy) as never, useResponses: api === 'responses' }) })
    const outcome = await runner.run(agent, 'Weather in Paris?').then(
      (result) => ({ finalOutput: result.finalOutput as string, error: undefined }),
      (error: Error) => ({ finalOutput: undefined, error }),
    )
    return { ...outcome, toolRuns, requests: proxy.requests.length, toolResult: toolResultSent(proxy) }
  }

  test('invalid_tool_args: the tool does not run; the SDK tells the model its arguments were not JSON, and the run goes on', async () => {
    const run = await runAgent('invalid_tool_args')
    expect(run).toMatchObject({ finalOutput: SUNNY, toolRuns: 0, requests: 2, toolResult: PARSE_ERROR })
  })

  test('schema_violation: the tool does not run; the model is told the tool failed, and the run goes on', async () => {
    const run = await runAgent('schema_violation')
    expect(run).toMatchObject({ finalOutput: SUNNY, toolRuns: 0, requests: 2, toolResult: RUN_ERROR })
  })

  test('unknown_tool: the run fails with ModelBehaviorError naming the tool', async () => {
    const run = await runAgent('unknown_tool')
    expect(run.error).toBeInstanceOf(ModelBehaviorError)
    expect(run.error?.message).toBe('Tool search_web not found in agent Forecaster.')
    expect(run.requests).toBe(1)
  })

  test('duplicate_tool_ids: both calls are taken as one; the tool runs once and the run goes on', async () => {
    expect(await runAgent('duplicate_tool_ids')).toMatchObject({ finalOutput: SUNNY, toolRuns: 1, requests: 2 })
  })

  test('refusal: the run fails with ModelRefusalError carrying the refusal', async () => {
    const run = await runAgent('refusal')
    expect(run.error).toBeInstanceOf(ModelRefusalError)
    expect(run.error?.message).toMatch(/^Model refused to produce output: I'm sorry/)
  })

  test('truncated, empty, content_filter, reasoning_only: what each API path makes of them', async () => {
    const [truncated, empty, filtered, reasoningOnly] = await Promise.all(['truncated', 'empty', 'content_filter', 'reasoning_only'].map((kind) => runAgent(kind as MisbehaviourKind)))
    if (api === 'chat completions') {
      // finish_reason "length" is not looked at: the cut text is the final output.
      expect(truncated.finalOutput).toMatch(/^Here is a detailed answer to your question\..* depends on$/)
      // An empty or reasoning-only message ends the run with an empty output, no second request.
      expect(empty).toMatchObject({ finalOutput: '', requests: 1 })
      expect(reasoningOnly).toMatchObject({ finalOutput: '', requests: 1 })
      // The filtered finish is reported as a refusal.
      expect(filtered.error).toBeInstanceOf(ModelRefusalError)
      expect(filtered.error?.message).toMatch(/content filter/)
    } else {
      // "response.incomplete" (max_output_tokens, content_filter) fails the run.
      for (const run of [truncated, filtered]) {
        expect(run.error).toBeInstanceOf(ModelBehaviorError)
        expect(run.error?.message).toMatch(/unsuccessful terminal state "response.incomplete"/)
      }
      // No message at all: the runner asks the model again, and takes the next answer.
      expect(empty).toMatchObject({ finalOutput: SUNNY, requests: 2 })
      expect(reasoningOnly).toMatchObject({ finalOutput: SUNNY, requests: 2 })
    }
  })

  test('wrong_language and off_format: taken as the final output as they are', async () => {
    expect((await runAgent('wrong_language')).finalOutput).toMatch(/^Voici la réponse/)
    expect((await runAgent('off_format')).finalOutput).toMatch(/^Sure! Here is what you asked for/)
  })
})

describe('LangChain ChatOpenAI with bindTools', () => {
  const getWeather = langchainTool(async ({ city }) => `sunny in ${city}`, { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) })

  /** The same misbehaviour through invoke() and through stream() (chunks concatenated). */
  async function both(kind: MisbehaviourKind): Promise<[AIMessageChunk, AIMessageChunk]> {
    const proxy = await misbehaving(kind, 2)
    const chat = new ChatOpenAI({ model: 'gpt-4o', apiKey: 'k', configuration: { baseURL: `${proxy.url}/v1` }, maxRetries: 0 }).bindTools([getWeather])
    const invoked = await chat.invoke([new HumanMessage('Weather in Paris?')])
    let streamed: AIMessageChunk | undefined
    for await (const chunk of await chat.stream([new HumanMessage('Weather in Paris?')])) streamed = streamed ? streamed.concat(chunk) : chunk
    return [invoked, streamed!]
  }

  test.each(misbehaviourKinds)('%s, invoked and streamed', async (kind) => {
    const [invoked, streamed] = await both(kind)
    for (const message of [invoked, streamed]) {
      const finish = message.response_metadata.finish_reason
      switch (kind) {
        case 'invalid_tool_args':
          // Not a tool call: an invalid_tool_call keeping the raw arguments and the parse error.
          expect(message.tool_calls).toEqual([])
          expect(message.invalid_tool_calls).toHaveLength(1)
          expect(message.invalid_tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: expect.not.stringMatching(/^\{"/) })
          expect(message.invalid_tool_calls?.[0].error).toMatch(message === invoked ? /are not valid JSON/ : /Malformed args/)
          break
        case 'schema_violation': {
          // Accepted as a tool call; the tool itself rejects the arguments.
          expect(message.tool_calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 12345 } })])
          await expect(getWeather.invoke(message.tool_calls![0])).rejects.toThrow(/did not match expected schema/)
          break
        }
        case 'unknown_tool':
          // LangChain does not check the name against the tools bound.
          expect(message.tool_calls?.map((call) => call.name)).toEqual(['search_web'])
          break
        case 'duplicate_tool_ids':
          expect(message.tool_calls).toHaveLength(2)
          expect(message.tool_calls?.[0].id).toBe(message.tool_calls?.[1].id)
          break
        case 'truncated':
          expect(finish).toBe('length')
          expect(message.text).toMatch(/depends on$/)
          break
        case 'content_filter':
          expect(finish).toBe('content_filter')
          expect(message.text).toBe('')
          break
        case 'empty':
        case 'reasoning_only':
        case 'refusal':
          // Chat Completions' refusal and reasoning are not carried over: an empty message, "stop".
          expect(finish).toBe('stop')
          expect(message.text).toBe('')
          expect(message.additional_kwargs.refusal).toBeUndefined()
          break
        case 'wrong_language':
          expect(message.text).toMatch(/^Voici/)
          break
        case 'off_format':
          expect(message.text).toMatch(/^Sure!/)
          break
      }
    }
  })
})

describe("LangGraph's prebuilt ReAct agent on ChatOpenAI", () => {
  const getWeather = langchainTool(async ({ city }) => `sunny in ${city}`, { name: 'get_weather', description: 'The weather in a city', schema: z.object({ city: z.string() }) })

  async function runGraph(kind: MisbehaviourKind) {
    const proxy = await misbehaving(kind)
    const llm = new ChatOpenAI({ model: 'gpt-4o', apiKey: 'k', configuration: { baseURL: `${proxy.url}/v1` }, maxRetries: 0 })
    const agent = createReactAgent({ llm, tools: [getWeather] })
    const { messages } = await agent.invoke({ messages: [new HumanMessage('Weather in Paris?')] })
    return { proxy, messages, final: messages.at(-1)?.text, tools: messages.filter((m) => m instanceof ToolMessage) as ToolMessage[] }
  }

  test('unknown_tool and schema_violation: the tool node answers the model with the error, and the agent goes on', async () => {
    const unknown = await runGraph('unknown_tool')
    expect(unknown.final).toBe(SUNNY)
    expect(unknown.tools).toHaveLength(1)
    expect(unknown.tools[0].status).toBe('error')
    expect(unknown.tools[0].text).toMatch(/Tool "search_web" not found/)
    const invalid = await runGraph('schema_violation')
    expect(invalid.final).toBe(SUNNY)
    expect(invalid.tools[0].status).toBe('error')
    expect(invalid.tools[0].text).toMatch(/did not match expected schema/)
    expect(toolResultSent(invalid.proxy)).toMatch(/did not match expected schema/)
  })

  test('invalid_tool_args: an invalid tool call is no tool call — the agent stops with the empty message', async () => {
    const run = await runGraph('invalid_tool_args')
    expect(run.tools).toHaveLength(0)
    expect(run.proxy.requests).toHaveLength(1)
    expect(run.final).toBe('')
  })
})
