/**
 * `generateText` from the `ai` package on two in-process models: the AI SDK's own
 * MockLanguageModelV3 (`ai/test`, the baseline) and ScriptedLLM.languageModel().
 */
import { generateText, streamText } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { scriptedLLM } from '../../src/index.js'
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
const scripted = scriptedLLM({ hello: 'hi there' }).languageModel()

export const groups: BenchGroup[] = [
  {
    title: 'ai generateText in process (baseline: ai/test MockLanguageModelV3)',
    cases: [
      { name: 'MockLanguageModelV3 (ai/test)', fn: () => generateText({ model: aiTestModel, prompt: 'hello' }) },
      { name: 'ScriptedLLM.languageModel()', fn: () => generateText({ model: scripted, prompt: 'hello' }) },
    ],
  },
  {
    title: 'ai streamText in process, ScriptedLLM (words chunking)',
    cases: [
      {
        name: 'ScriptedLLM.languageModel() streamText',
        fn: async () => {
          const result = streamText({ model: scripted, prompt: 'hello' })
          for await (const _ of result.textStream) void _
        },
      },
    ],
  },
]
