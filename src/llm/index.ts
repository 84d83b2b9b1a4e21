/**
 * The model side of agent-doubles: the neutral model, `ScriptedLLM`, transcripts, the
 * recorder and the Vercel AI SDK adapter.
 * @module
 */
export type * from './types.js'
export { ScriptedLLM, scriptedLLM, type ScriptedLLMOptions, type TranscriptOptions, type ModelCapabilities } from './scripted-llm.js'
export type { Script, ScriptFunction, ReplyMap } from './script.js'
export type { Reply, ReplyObject, ReplyPart } from './reply.js'
export type { RuleMatch, RuleOptions, TextMatcher, RuleDeclaration } from './rules.js'
export { toolCall, customToolCall, lastUserText, type ScriptedToolCall } from './helpers.js'
export { chunkText, responseEvents, streamResponse, type Chunking, type Latency } from './stream-events.js'
export { estimateTokens, type UsageOption } from './usage.js'
export { parseTranscript, readTranscript, serializeTurn, type Transcript, type TranscriptTurn } from './transcript.js'
export { record, type RecordOptions, type WritableLike, type AnyAiLanguageModel } from './recorder.js'
export {
  toLanguageModel,
  toModelRequest,
  toGenerateResult,
  isAiLanguageModel,
  type AiLanguageModel,
  type AiCallOptions,
  type AiGenerateResult,
  type AiStreamPart,
} from './language-model.js'
