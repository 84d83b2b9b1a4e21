/**
 * `generateText` from the `ai` package on two in-process models: the AI SDK's own
 * MockLanguageModelV3 (`ai/test`, the baseline) and ScriptedLLM.languageModel().
 */
import { generateText, streamText } from 'ai'
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test'
import { scriptedLLM } from 'agent-doubles'
import type { BenchGroup } from '../run.js'

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
}
const aiTestModel = new MockLanguageModelV3({
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'hi there' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  }),
})
const aiTestStreamingModel = new MockLanguageModelV3({
  doStream: async () => ({
    // null delays: no timer between chunks (the default, 0, waits a setTimeout per chunk).
    stream: simulateReadableStream({
      initialDelayInMs: null,
      chunkDelayInMs: null,
      chunks: [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'hi' },
        { type: 'text-delta', id: 't', delta: ' there' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ],
    }),
  }),
})
const llm = scriptedLLM({ hello: 'hi there' })
const scripted = llm.languageModel()

// Both doubles record every call; clear them now and then so memory stays flat for both.
let calls = 0
function clearRecords(): void {
  if (++calls % 1000 !== 0) return
  llm.reset()
  aiTestModel.doGenerateCalls.length = 0
  aiTestStreamingModel.doStreamCalls.length = 0
}

async function drain(model: Parameters<typeof streamText>[0]['model']): Promise<void> {
  clearRecords()
  const result = streamText({ model, prompt: 'hello' })
  for await (const _ of result.textStream) void _
}

export const groups: BenchGroup[] = [
  {
    title: 'ai generateText in process (baseline: ai/test MockLanguageModelV3)',
    cases: [
      { name: 'MockLanguageModelV3 (ai/test)', fn: () => (clearRecords(), generateText({ model: aiTestModel, prompt: 'hello' })) },
      { name: 'ScriptedLLM.languageModel()', fn: () => (clearRecords(), generateText({ model: scripted, prompt: 'hello' })), target: 1.05 },
    ],
  },
  {
    title: 'ai streamText in process, two text deltas (baseline: ai/test MockLanguageModelV3)',
    cases: [
      { name: 'MockLanguageModelV3 + simulateReadableStream (no delays)', fn: () => drain(aiTestStreamingModel) },
      { name: 'ScriptedLLM.languageModel() (words chunking)', fn: () => drain(scripted) },
    ],
  },
]
