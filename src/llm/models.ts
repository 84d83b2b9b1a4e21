/**
 * The models a FakeProxy knows (SPEC §20): each one's context window, longest answer, smallest
 * cacheable prompt and list price, for the current OpenAI, Anthropic, Gemini and Bedrock
 * models. A request over a known model's window gets its provider's `context_length_exceeded`;
 * unknown models have no limit. `configure({ models, prices })` adds or overrides entries.
 * @module
 */

/** What one model costs, in US dollars per million tokens. */
export interface ModelPrice {
  inputPerMTok: number
  outputPerMTok: number
  /** Input read from the prompt cache. @default inputPerMTok */
  cacheReadPerMTok?: number
  /** Input written to the prompt cache (Anthropic's 5-minute writes; free elsewhere). @default inputPerMTok */
  cacheWritePerMTok?: number
  /** Input written to the cache with a one-hour TTL (Anthropic). @default cacheWritePerMTok */
  cacheWrite1hPerMTok?: number
}

/** What the proxy knows of one model's limits. */
export interface ModelInfo {
  /** Input tokens (with the answer's, where the provider counts them together) the model takes. */
  contextWindow: number
  /** The longest answer, in tokens. */
  maxOutputTokens?: number
  /**
   * The shortest prompt prefix the provider caches, in tokens: Anthropic's per-model minimum
   * for a `cache_control` breakpoint, Gemini's for implicit caching. OpenAI's is 1024 for all.
   */
  minCacheableTokens?: number
}

/** A row of the built-in table: limits and list price. */
export interface KnownModel extends ModelInfo {
  price: ModelPrice
}

const anthropic = (contextWindow: number, maxOutputTokens: number, minCacheableTokens: number, input: number, output: number): KnownModel => ({
  contextWindow,
  maxOutputTokens,
  minCacheableTokens,
  // Anthropic's list: reads at 10 % of input, 5-minute writes at 125 %, 1-hour writes at 200 %.
  price: { inputPerMTok: input, outputPerMTok: output, cacheReadPerMTok: input / 10, cacheWritePerMTok: input * 1.25, cacheWrite1hPerMTok: input * 2 },
})

const openai = (contextWindow: number, maxOutputTokens: number, input: number, output: number, cached: number): KnownModel => ({
  contextWindow,
  maxOutputTokens,
  minCacheableTokens: 1024,
  // OpenAI charges nothing extra for writing its automatic cache.
  price: { inputPerMTok: input, outputPerMTok: output, cacheReadPerMTok: cached, cacheWritePerMTok: input },
})

const gemini = (maxOutputTokens: number, minCacheableTokens: number, input: number, output: number, cached: number): KnownModel => ({
  contextWindow: 1_048_576,
  maxOutputTokens,
  minCacheableTokens,
  price: { inputPerMTok: input, outputPerMTok: output, cacheReadPerMTok: cached, cacheWritePerMTok: input },
})

/**
 * The built-in table, by model id: a request's model takes the row of its id, or of the id it
 * extends with a snapshot date or preview tag (`claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`). Bedrock ids are read
 * without their region (`us.`, `eu.`, `global.`…), vendor (`anthropic.`) and version
 * (`-v1:0`) parts, so `us.anthropic.claude-sonnet-4-5-20250929-v1:0` is Claude Sonnet 4.5.
 * List prices in US dollars per million tokens, as published when this table was written.
 */
export const knownModels: Readonly<Record<string, KnownModel>> = Object.freeze({
  // OpenAI
  'gpt-5': openai(400_000, 128_000, 1.25, 10, 0.125),
  'gpt-5-mini': openai(400_000, 128_000, 0.25, 2, 0.025),
  'gpt-5-nano': openai(400_000, 128_000, 0.05, 0.4, 0.005),
  'gpt-5-chat': openai(128_000, 16_384, 1.25, 10, 0.125),
  'gpt-5.1': openai(400_000, 128_000, 1.25, 10, 0.125),
  'gpt-5-codex': openai(400_000, 128_000, 1.25, 10, 0.125),
  'gpt-4.1': openai(1_047_576, 32_768, 2, 8, 0.5),
  'gpt-4.1-mini': openai(1_047_576, 32_768, 0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(1_047_576, 32_768, 0.1, 0.4, 0.025),
  'gpt-4o': openai(128_000, 16_384, 2.5, 10, 1.25),
  'gpt-4o-mini': openai(128_000, 16_384, 0.15, 0.6, 0.075),
  o3: openai(200_000, 100_000, 2, 8, 0.5),
  'o3-mini': openai(200_000, 100_000, 1.1, 4.4, 0.55),
  'o3-pro': openai(200_000, 100_000, 20, 80, 20),
  'o4-mini': openai(200_000, 100_000, 1.1, 4.4, 0.275),
  // Anthropic
  'claude-opus-4-5': anthropic(200_000, 64_000, 4096, 5, 25),
  'claude-opus-4-1': anthropic(200_000, 32_000, 1024, 15, 75),
  'claude-opus-4': anthropic(200_000, 32_000, 1024, 15, 75),
  'claude-sonnet-4-5': anthropic(200_000, 64_000, 1024, 3, 15),
  'claude-sonnet-4': anthropic(200_000, 64_000, 1024, 3, 15),
  'claude-haiku-4-5': anthropic(200_000, 64_000, 4096, 1, 5),
  'claude-3-7-sonnet': anthropic(200_000, 64_000, 1024, 3, 15),
  'claude-3-5-haiku': anthropic(200_000, 8_192, 2048, 0.8, 4),
  // Gemini
  'gemini-3-pro': gemini(65_536, 4096, 2, 12, 0.2),
  'gemini-2.5-pro': gemini(65_536, 4096, 1.25, 10, 0.125),
  'gemini-2.5-flash': gemini(65_536, 1024, 0.3, 2.5, 0.03),
  'gemini-2.5-flash-lite': gemini(65_536, 1024, 0.1, 0.4, 0.01),
  'gemini-2.0-flash': gemini(8_192, 1024, 0.1, 0.4, 0.025),
  // Amazon Nova on Bedrock (Claude on Bedrock reads the Anthropic rows)
  'amazon.nova-pro': { contextWindow: 300_000, maxOutputTokens: 10_000, minCacheableTokens: 1000, price: { inputPerMTok: 0.8, outputPerMTok: 3.2, cacheReadPerMTok: 0.2, cacheWritePerMTok: 0.8 } },
  'amazon.nova-lite': { contextWindow: 300_000, maxOutputTokens: 10_000, minCacheableTokens: 1000, price: { inputPerMTok: 0.06, outputPerMTok: 0.24, cacheReadPerMTok: 0.015, cacheWritePerMTok: 0.06 } },
  'amazon.nova-micro': { contextWindow: 128_000, maxOutputTokens: 10_000, minCacheableTokens: 1000, price: { inputPerMTok: 0.035, outputPerMTok: 0.14, cacheReadPerMTok: 0.00875, cacheWritePerMTok: 0.035 } },
})

const ids = Object.keys(knownModels).sort((a, b) => b.length - a.length)

/** `model` as the table reads it: Bedrock's region, vendor and version parts dropped, lower case. */
export function tableId(model: string): string {
  let id = model.toLowerCase()
  id = id.replace(/^(?:us|eu|apac|ap|jp|au|ca|global|us-gov)\.(?=[a-z]+\.)/, '')
  if (id.startsWith('anthropic.')) id = id.slice('anthropic.'.length)
  id = id.replace(/-v\d+(?::\d+)?$/, '')
  // OpenRouter-style and Vertex-style prefixes.
  id = id.replace(/^(?:openai|anthropic|google)\//, '').replace(/^models\//, '')
  return id
}

/**
 * What may follow a table id in a model name of the same model: a snapshot date
 * (`-20250929`, `-2024-08-06`, Vertex's `@20250929`), `-latest`, or a preview tag. A newer
 * version (`claude-opus-4-6`, `gpt-5.2`) is another model, unknown unless configured.
 */
const SNAPSHOT_SUFFIX = /^(?:-\d{8}|-\d{4}-\d{2}-\d{2}|@[\w-]+|-latest|-(?:preview|exp)(?:-[\w-]*)?)$/

/** Memo of lookups: a test's few model names are looked up on every request. */
const lookups = new Map<string, KnownModel | null>()

/** The built-in row for `model` (longest id prefix), or `undefined`. */
export function knownModel(model: string): KnownModel | undefined {
  const hit = lookups.get(model)
  if (hit !== undefined) return hit ?? undefined
  const id = tableId(model)
  const key = ids.find((prefix) => id === prefix || (id.startsWith(prefix) && SNAPSHOT_SUFFIX.test(id.slice(prefix.length))))
  const found = key === undefined ? undefined : knownModels[key]
  if (lookups.size > 1000) lookups.clear()
  lookups.set(model, found ?? null)
  return found
}
