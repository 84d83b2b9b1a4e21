/**
 * What one request's prompt costs (SPEC §20), measured once on the hot path: its tokens (the
 * model's tokenizer, else the estimate), whether it fits the model's context window, and what
 * the lane's prompt cache read and wrote for it. The answer's usage is then filled from it.
 * @module
 */
import { modelInfoOf } from '../config.js'
import type { CacheOutcome, PromptCache } from '../llm/prompt-cache.js'
import { countWith, type TokenCounter } from '../llm/tokens.js'
import type { ModelRequest, ModelResponse, Usage } from '../llm/types.js'
import { estimatedCounts, partsText } from '../llm/usage.js'
import type { WireDialect } from '../wire/dialect.js'
import { countPrompt, type CountedPrompt, type TokenMode } from '../wire/prompt-count.js'
import { openaiProviderError } from '../wire/openai-chat/errors.js'
import type { FakeRequest, PromptCacheRecord } from './types.js'

/** How a proxy (and its lanes) count tokens and cache prompts. */
export interface PromptSettings {
  /** `'tokenizer'`: OpenAI models with their real tokenizer; `'estimate'`: every model estimated. */
  readonly tokens: TokenMode
  /** The lane's prompt cache, or `undefined` when caching is not simulated. */
  readonly cache: PromptCache | undefined
}

/** One request's prompt, measured. */
export interface PromptMeasure {
  counter: TokenCounter
  /** Every input token. */
  input: number
  /** The cache's outcome, when caching is simulated for this wire. */
  outcome: CacheOutcome | undefined
}

/** A request over its model's context window: the provider's error, ready to send. */
export interface TooLong {
  status: number
  body: unknown
  headers: Record<string, string>
  error: NonNullable<FakeRequest['error']>
}

/**
 * Measures a model request's prompt: its tokens, the context-window check, the cache. Returns
 * the provider's error for a prompt over the window. Throws the layout's `BadRequest` for a bad
 * `cache_control` or `cachePoint`. A short prompt is measured at once (no promise, so the hot
 * path awaits nothing); a long one, or a first one waiting for its tokenizer, gives a promise.
 */
export function measurePrompt(settings: PromptSettings, dialect: WireDialect, json: Record<string, unknown>, request: ModelRequest, requestId: string): PromptMeasure | TooLong | Promise<PromptMeasure | TooLong> {
  const info = modelInfoOf(request.model)
  // A token limit over the model's maximum output: the provider's own 400, before any counting.
  const max = info?.maxOutputTokens
  if (max !== undefined && request.maxTokens !== undefined && request.maxTokens > max && dialect.outputLimitError) {
    throw dialect.outputLimitError(json, request.maxTokens, max, request.model)
  }
  const counted = countPrompt(settings.tokens, dialect, json, request)
  if (counted instanceof Promise) return counted.then((prompt) => measured(settings, dialect, request, requestId, info?.contextWindow, prompt))
  return measured(settings, dialect, request, requestId, info?.contextWindow, counted)
}

function measured(settings: PromptSettings, dialect: WireDialect, request: ModelRequest, requestId: string, window: number | undefined, counted: CountedPrompt): PromptMeasure | TooLong {
  if (window !== undefined && counted.input > window) return tooLong(dialect, request.model, counted.input, window, requestId)
  // Entries expire on Date.now(), so a test's fake timers move them.
  const outcome = settings.cache && counted.prompt ? settings.cache.serve(counted.prompt, Date.now()) : undefined
  return { counter: counted.counter, input: counted.input, outcome }
}

/** Whether `value` is a measured prompt rather than a too-long error. */
export function isMeasure(value: PromptMeasure | TooLong): value is PromptMeasure {
  return 'input' in value
}

/** The usage a request's answer starts with: its input and cache counts, no output yet. */
export function promptUsage(measure: PromptMeasure): Usage {
  return withCache({ inputTokens: measure.input, outputTokens: 0 }, measure)
}

/**
 * `response` with its usage made from the measure: counts the brain estimated are replaced by
 * the proxy's (the tokenizer's), counts a test gave are kept; the cache counts are added.
 */
export function withPromptUsage(response: ModelResponse, measure: PromptMeasure): ModelResponse {
  const given = response.usage
  const estimated = estimatedCounts(given)
  const usage: Usage = {
    inputTokens: estimated.input ? measure.input : given.inputTokens,
    outputTokens: estimated.output ? countWith(measure.counter, partsText(response.content)) : given.outputTokens,
  }
  return { ...response, usage: withCache(usage, measure) }
}

function withCache(usage: Usage, measure: PromptMeasure): Usage {
  const outcome = measure.outcome
  if (!outcome) return usage
  // A brain's own input count may be smaller than the prompt: the cache never reads more than it.
  const read = Math.min(outcome.read, usage.inputTokens)
  const write = Math.min(outcome.write, usage.inputTokens - read)
  const write1h = Math.min(outcome.write1h, write)
  // Counts of zero are left out: the encoders report zero for them, and records stay as they were.
  if (read > 0) usage.cacheReadTokens = read
  if (write > 0) usage.cacheWriteTokens = write
  if (write1h > 0) usage.cacheWrite1hTokens = write1h
  return usage
}

/** What a request records of the cache. */
export function cacheRecord(measure: PromptMeasure): PromptCacheRecord | undefined {
  const outcome = measure.outcome
  if (!outcome) return undefined
  const record: PromptCacheRecord = { inputTokens: measure.input, readTokens: outcome.read, writeTokens: outcome.write, write1hTokens: outcome.write1h }
  if (outcome.miss) record.miss = outcome.miss
  return record
}

/**
 * The provider's own `context_length_exceeded` (its folder's `errors.ts`), with the counts in
 * the provider's words where its message carries them.
 */
function tooLong(dialect: WireDialect, model: string, tokens: number, window: number, requestId: string): TooLong {
  const id = dialect.id
  const message = dialect.contextTooLongMessage?.(tokens, window)
  const answerFor = dialect.providerError ?? openaiProviderError
  const answer = answerFor('context_length_exceeded', { dialect: id, message, requestId, model, now: Math.floor(Date.now() / 1000) })
  return { status: answer.status, body: answer.body, headers: answer.headers, error: answer.error }
}
