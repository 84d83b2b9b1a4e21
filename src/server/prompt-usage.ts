/**
 * What one request's prompt costs (SPEC §20), measured once on the hot path: its tokens (the
 * model's tokenizer, else the estimate), whether it fits the model's context window, and what
 * the lane's prompt cache read and wrote for it. The answer's usage is then filled from it.
 * @module
 */
import { modelInfoOf } from '../config.js'
import { countWith, prepareTokenCounter, tokenCounterFor, type TokenCounter } from '../llm/tokens.js'
import type { ModelRequest, ModelResponse, Usage } from '../llm/types.js'
import { estimatedCounts, partsText } from '../llm/usage.js'
import { providerErrorAnswer } from '../proxy/provider-error-answer.js'
import type { Dialect, FakeRequest } from '../proxy/types.js'
import type { WireDialect } from '../proxy/dialect.js'
import { anthropicLayout } from '../wire/anthropic-messages/cache.js'
import { converseLayout } from '../wire/bedrock/cache.js'
import { geminiLayout } from '../wire/gemini/cache.js'
import { chatLayout } from '../wire/openai-chat/cache.js'
import { responsesLayout } from '../wire/openai-responses/cache.js'
import { neutralLayout, type PromptLayout } from '../wire/prompt-layout.js'
import { PromptCache, type CacheBlock, type CacheOutcome, type CachePrompt } from './prompt-cache.js'

/** How a proxy (and its lanes) count tokens and cache prompts. */
export interface PromptSettings {
  /** `'tokenizer'`: OpenAI models with their real tokenizer; `'estimate'`: every model estimated. */
  readonly tokens: 'tokenizer' | 'estimate'
  /** The lane's prompt cache, or `undefined` when caching is not simulated. */
  readonly cache: PromptCache | undefined
}

/** What the cache did for one request, as recorded on it (`FakeRequest.promptCache`). */
export interface PromptCacheRecord {
  /** Every input token of the request. */
  inputTokens: number
  /** Tokens read from the cache. */
  readTokens: number
  /** Tokens written to the cache. */
  writeTokens: number
  /** Of `writeTokens`, those written with a one-hour TTL. */
  write1hTokens: number
  /** Why it read nothing (or less than its cacheable prefix), when it did. */
  miss?: CacheOutcome['miss']
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

type Layout = (json: Record<string, unknown>, request: ModelRequest, roleTokens: (role: string) => number) => PromptLayout

/** Each wire's own layout; the others are laid out from the neutral request, without a cache. */
const layouts: Partial<Record<Dialect, Layout>> = {
  'anthropic-messages': (json) => anthropicLayout(json),
  'bedrock-invoke': (json) => anthropicLayout(json),
  'bedrock-converse': (json) => converseLayout(json),
  'openai-chat': (json, _request, roles) => chatLayout(json, roles),
  'openai-responses': (json, _request, roles) => responsesLayout(json, roles),
  'gemini-generate': (json) => geminiLayout(json),
  'gemini-count-tokens': (json) => geminiLayout(countedGemini(json)),
}

/** Gemini's `countTokens` may wrap a whole generate request. */
function countedGemini(json: Record<string, unknown>): Record<string, unknown> {
  const wrapped = json.generateContentRequest ?? json.generate_content_request
  return wrapped && typeof wrapped === 'object' ? (wrapped as Record<string, unknown>) : json
}

const MINUTE = 60_000
/** Anthropic and Bedrock breakpoint TTLs. */
const TTL_MS = { '5m': 5 * MINUTE, '1h': 60 * MINUTE } as const
/** OpenAI keeps an unused prefix about 5–10 minutes (in memory), or a day with `prompt_cache_retention: '24h'`. */
const OPENAI_TTL_MS = 5 * MINUTE
const OPENAI_EXTENDED_TTL_MS = 24 * 60 * MINUTE
/** Gemini's implicit cache: undocumented; a few minutes, as observed. */
const GEMINI_TTL_MS = 5 * MINUTE
/** The smallest cacheable prefix where the model table says nothing. */
const DEFAULT_MIN_TOKENS = 1024

/**
 * Measures a model request's prompt: its tokens, the context-window check, the cache. Returns
 * the provider's error for a prompt over the window. Throws the layout's `BadRequest` for a bad
 * `cache_control` or `cachePoint`.
 */
export async function measurePrompt(settings: PromptSettings, dialect: WireDialect, json: Record<string, unknown>, request: ModelRequest, requestId: string): Promise<PromptMeasure | TooLong> {
  const measure = await countPrompt(settings, dialect.id, json, request)
  const info = modelInfoOf(request.model)
  if (info && measure.input > info.contextWindow) return tooLong(dialect, request.model, measure.input, info.contextWindow, requestId)
  if (settings.cache && measure.prompt) measure.outcome = settings.cache.serve(measure.prompt, Date.now())
  return measure
}

/** A prompt counted (and laid out for the cache, where the wire caches). */
interface Counted extends PromptMeasure {
  prompt: CachePrompt | undefined
}

/**
 * The tokens of a request's prompt on `dialect`'s wire — what `usage` reports and the count
 * endpoints answer. Loads the model's tokenizer first when it is not loaded yet.
 */
export async function countPrompt(settings: Pick<PromptSettings, 'tokens'>, dialect: Dialect, json: Record<string, unknown>, request: ModelRequest): Promise<Counted> {
  const model = request.model
  let counter: TokenCounter = 'estimate'
  if (settings.tokens === 'tokenizer') {
    const loading = prepareTokenCounter(model)
    if (loading) await loading
    counter = tokenCounterFor(model)
  }
  const roleTokens = (role: string): number => countWith(counter, role)
  const layout = (layouts[dialect] ?? ((_json, req) => neutralLayout(req)))(json, request, roleTokens)
  const blocks: CacheBlock[] = layout.blocks.map((block) => {
    const tokens = (block.fixedTokens ?? countWith(counter, block.text)) + (block.overhead ?? 0)
    const laid: CacheBlock = { where: block.where, text: block.text, tokens }
    if (block.ttl) {
      laid.breakpointMs = TTL_MS[block.ttl]
      if (block.ttl === '1h') laid.longTtl = true
    }
    return laid
  })
  let input = layout.extraTokens
  for (const block of blocks) input += block.tokens
  const prompt = layout.cache === 'none' ? undefined : cachePrompt(dialect, model, layout, blocks, counter)
  return { counter, input, outcome: undefined, prompt }
}

function cachePrompt(dialect: Dialect, model: string, layout: PromptLayout, blocks: CacheBlock[], counter: TokenCounter): CachePrompt {
  const gemini = dialect.startsWith('gemini')
  const configuredMin = modelInfoOf(model)?.minCacheableTokens
  return {
    mode: layout.cache === 'explicit' ? 'explicit' : 'automatic',
    blocks,
    minTokens: gemini || layout.cache === 'explicit' ? (configuredMin ?? DEFAULT_MIN_TOKENS) : DEFAULT_MIN_TOKENS,
    step: gemini ? 1 : 128,
    ttlMs: gemini ? GEMINI_TTL_MS : layout.retention === '24h' ? OPENAI_EXTENDED_TTL_MS : OPENAI_TTL_MS,
    partition: `${model}\u0000${layout.cacheKey ?? ''}`,
    countPrefix: (index, chars) => {
      const block = layout.blocks[index]
      if (!block || block.fixedTokens !== undefined || chars === 0) return 0
      return countWith(counter, block.text.slice(0, chars)) + (block.overhead ?? 0)
    },
  }
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
  usage.cacheReadTokens = read
  usage.cacheWriteTokens = write
  usage.cacheWrite1hTokens = Math.min(outcome.write1h, write)
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

/** The provider's own error for a prompt of `tokens` over a window of `window`. */
function tooLong(dialect: WireDialect, model: string, tokens: number, window: number, requestId: string): TooLong {
  const id = dialect.id
  if (id === 'openai-chat' || id === 'openai-responses' || id === 'anthropic-messages') {
    const message =
      id === 'openai-chat'
        ? `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`
        : id === 'anthropic-messages'
          ? `prompt is too long: ${tokens} tokens > ${window} maximum`
          : undefined
    const answer = providerErrorAnswer('context_length_exceeded', id, { message, requestId, model, now: 0 })
    return { status: answer.status, body: answer.body, headers: {}, error: answer.error }
  }
  const message = id.startsWith('gemini')
    ? `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`
    : id.startsWith('bedrock')
      ? 'Input is too long for requested model.'
      : `the input length (${tokens} tokens) exceeds the context length (${window})`
  const own = dialect.errorAnswer?.(400, message)
  const body = own?.body ?? { error: { message, type: 'invalid_request_error', param: null, code: 'context_length_exceeded' } }
  return { status: 400, body, headers: own?.headers ?? {}, error: { name: 'context_length_exceeded', type: 'invalid_request_error', code: 'context_length_exceeded', param: null, message } }
}
