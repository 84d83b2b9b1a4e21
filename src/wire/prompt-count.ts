/**
 * A request's prompt counted on its own wire (SPEC §20): each dialect lays its body out
 * (`<dialect>/cache.ts`), each block is counted with the model's tokenizer or the estimate, and
 * the blocks are handed to the prompt cache in the provider's terms (explicit breakpoints or
 * automatic prefixes, minimum, steps, TTLs). Usage and the count endpoints read the same count.
 * @module
 */
import { modelInfoOf } from '../config.js'
import type { CacheBlock, CachePrompt } from '../llm/prompt-cache.js'
import { SLICED_FROM, countWith, countWithTurns, prepareTokenCounter, tokenCounterFor, type TokenCounter } from '../llm/tokens.js'
import { LoopSlices } from '../internal/scheduling.js'
import type { ModelRequest } from '../llm/types.js'
import { neutralLayout, type LayoutBlock, type PromptLayout, type PromptTerms } from './prompt-layout.js'

/** How tokens are counted: `'tokenizer'` (OpenAI models with their tokenizer) or `'estimate'` (all estimated). */
export type TokenMode = 'tokenizer' | 'estimate'

/** A prompt counted, and laid out for the cache where its wire caches. */
export interface CountedPrompt {
  counter: TokenCounter
  /** Every input token. */
  input: number
  /** The prompt as the cache reads it; `undefined` on wires without prompt caching. */
  prompt: CachePrompt | undefined
}

/** What counting needs of a dialect: its id (for messages) and its prompt terms. */
export interface CountingDialect {
  readonly prompt?: PromptTerms
}

/** The neutral terms: any request laid out from the neutral model, without a cache. */
const NEUTRAL: PromptTerms = { layout: (_json, request) => neutralLayout(request) }

const MINUTE = 60_000
/** Anthropic and Bedrock breakpoint TTLs. */
const TTL_MS = { '5m': 5 * MINUTE, '1h': 60 * MINUTE } as const
/** OpenAI keeps an unused prefix about 5–10 minutes (in memory), or a day with `prompt_cache_retention: '24h'`. */
const OPENAI_TTL_MS = 5 * MINUTE
const OPENAI_EXTENDED_TTL_MS = 24 * 60 * MINUTE
/** Gemini's implicit cache: its lifetime is not documented; five minutes here. */
const GEMINI_TTL_MS = 5 * MINUTE
/** The smallest cacheable prefix where the model table says nothing (OpenAI's for every model). */
const DEFAULT_MIN_TOKENS = 1024
/** OpenAI reads its cache in whole steps of 128 tokens past the minimum. */
const OPENAI_STEP = 128

/**
 * Prompts up to this many characters (and {@link AT_ONCE_BLOCKS} blocks) are counted at once,
 * without a promise: the most a single block was ever counted at once ({@link SLICED_FROM}).
 */
const AT_ONCE_CHARS = SLICED_FROM
const AT_ONCE_BLOCKS = 1024

/**
 * The tokens of a request's prompt on `dialect`'s wire — what `usage` reports and the count
 * endpoints answer. Loads the model's tokenizer first when it is not loaded yet. Throws the
 * layout's `BadRequest` for a bad `cache_control` or `cachePoint`.
 *
 * A prompt that is short (what nearly every test sends) is counted there and then and returned
 * as it is, so the hot path awaits nothing; a long one, or one whose tokenizer is still loading,
 * gives a promise.
 */
export function countPrompt(mode: TokenMode, dialect: CountingDialect, json: Record<string, unknown>, request: ModelRequest): CountedPrompt | Promise<CountedPrompt> {
  const model = request.model
  let counter: TokenCounter = 'estimate'
  if (mode === 'tokenizer') {
    const loading = prepareTokenCounter(model)
    if (loading) return loading.then(() => countPrompt(mode, dialect, json, request))
    counter = tokenCounterFor(model)
  }
  const terms = dialect.prompt ?? NEUTRAL
  const layout = terms.layout(json, request, roleCounter(counter))
  const laid = layout.blocks
  let chars = 0
  for (const block of laid) if (block.fixedTokens === undefined) chars += block.text.length
  if (chars >= AT_ONCE_CHARS || laid.length > AT_ONCE_BLOCKS) return countInSlices(model, terms, layout, counter)
  const blocks: CacheBlock[] = new Array(laid.length)
  for (let i = 0; i < laid.length; i++) blocks[i] = cacheBlock(laid[i]!, laid[i]!.fixedTokens ?? countWith(counter, laid[i]!.text))
  return counted(model, terms, layout, blocks, counter)
}

/**
 * A long prompt counted: a prompt of megabytes takes the tokenizer seconds, so it is counted in
 * slices, with turns of the event loop between them, and no other request waits that long (SPEC §24).
 */
async function countInSlices(model: string, terms: PromptTerms, layout: PromptLayout, counter: TokenCounter): Promise<CountedPrompt> {
  const slices = new LoopSlices()
  const turn = (): Promise<void> | undefined => slices.turn()
  const blocks: CacheBlock[] = []
  for (const block of layout.blocks) {
    const tokens = block.fixedTokens ?? (block.text.length >= SLICED_FROM ? await countWithTurns(counter, block.text, turn) : countWith(counter, block.text))
    blocks.push(cacheBlock(block, tokens))
    const pause = turn()
    if (pause) await pause
  }
  return counted(model, terms, layout, blocks, counter)
}

/** A laid-out block as the cache reads it, with its tokens (`counted`, and its framing). */
function cacheBlock(block: LayoutBlock, counted: number): CacheBlock {
  const laid: CacheBlock = { where: block.where, text: block.text, tokens: counted + (block.overhead ?? 0) }
  if (block.ttl) {
    laid.breakpointMs = TTL_MS[block.ttl]
    if (block.ttl === '1h') laid.longTtl = true
  }
  return laid
}

function counted(model: string, terms: PromptTerms, layout: PromptLayout, blocks: CacheBlock[], counter: TokenCounter): CountedPrompt {
  let input = layout.extraTokens
  for (const block of blocks) input += block.tokens
  const prompt = layout.cache === 'none' ? undefined : cachePrompt(terms, model, layout, blocks, counter)
  return { counter, input, prompt }
}

/** Counts a role's name with `counter`: one function per counter, rather than a closure per request. */
const roleCounters: Record<TokenCounter, (role: string) => number> = {
  o200k_base: (role) => countWith('o200k_base', role),
  cl100k_base: (role) => countWith('cl100k_base', role),
  estimate: (role) => countWith('estimate', role),
}

function roleCounter(counter: TokenCounter): (role: string) => number {
  return roleCounters[counter]
}

function cachePrompt(terms: PromptTerms, model: string, layout: PromptLayout, blocks: CacheBlock[], counter: TokenCounter): CachePrompt {
  const gemini = terms.implicit === true
  const configuredMin = modelInfoOf(model)?.minCacheableTokens
  return {
    mode: layout.cache === 'explicit' ? 'explicit' : 'automatic',
    blocks,
    minTokens: gemini || layout.cache === 'explicit' ? (configuredMin ?? DEFAULT_MIN_TOKENS) : DEFAULT_MIN_TOKENS,
    step: gemini ? 1 : OPENAI_STEP,
    ttlMs: gemini ? GEMINI_TTL_MS : layout.retention === '24h' ? OPENAI_EXTENDED_TTL_MS : OPENAI_TTL_MS,
    partition: `${model}\u0000${layout.cacheKey ?? ''}`,
    countPrefix: (index, chars) => {
      const block = layout.blocks[index]
      if (!block || block.fixedTokens !== undefined || chars === 0) return 0
      return countWith(counter, block.text.slice(0, chars)) + (block.overhead ?? 0)
    },
  }
}
