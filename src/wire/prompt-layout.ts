/**
 * A prompt laid out for token counting and the prompt cache (SPEC §20): its blocks in the
 * provider's prefix order (tools → system → messages) with each block's text, the framing
 * tokens the provider adds, and where the request marks cache breakpoints. Each dialect's
 * `cache.ts` reads its own wire into this shape; nothing here knows a provider.
 * @module
 */
import type { ModelRequest, Part } from '../llm/types.js'

/** How a provider caches prompts. */
export type CacheStyle = 'explicit' | 'automatic' | 'none'

/** One block of a request, as laid out by its dialect. */
export interface LayoutBlock {
  /** Where it is in the body, for failure messages: `system[0]`, `messages[2].content[1]`. */
  where: string
  /** The text that is counted and compared between requests. */
  text: string
  /** Framing tokens the provider adds for this block (a message's role markers). */
  overhead?: number
  /** Tokens the block costs whatever its text (an image). */
  fixedTokens?: number
  /** A cache breakpoint on this block, and its TTL. */
  ttl?: '5m' | '1h'
}

/** A request's prompt, laid out. */
export interface PromptLayout {
  blocks: LayoutBlock[]
  /** Tokens the provider adds once per request (OpenAI's reply priming). */
  extraTokens: number
  cache: CacheStyle
  /** OpenAI's `prompt_cache_key`: requests share cache entries only with the same key. */
  cacheKey?: string
  /** OpenAI's `prompt_cache_retention` (`'24h'` keeps entries a day). */
  retention?: string
}

/**
 * How a dialect's prompt is counted and cached (SPEC §20), declared by the dialect itself:
 * `layout` reads its own wire into blocks (its folder's `cache.ts`); `implicit` marks Gemini's
 * implicit caching (the model's minimum for every prefix, token-exact reads, its own TTL)
 * rather than OpenAI's automatic one (1024 tokens, 128-token steps).
 */
export interface PromptTerms {
  layout(json: Record<string, unknown>, request: ModelRequest, roleTokens: (role: string) => number): PromptLayout
  readonly implicit?: true
}

/** The tokens an image costs in the estimate (the same as a ScriptedLLM's estimate). */
export const IMAGE_TOKENS = 85

/** Strings this long inside a value are not written out again in its text (SPEC §24). */
const LONG_STRING = 1024 * 1024

/**
 * A value's text for counting: strings as they are, anything else as JSON. A long string inside
 * (a tool's description, an image's data) is joined into the text as it is, unescaped, rather
 * than copied by `JSON.stringify`: on a machine where fresh memory costs ~7 ms a MiB to touch,
 * writing 27 MiB out again held the event loop for 270–290 ms.
 */
export function textOfValue(value: unknown): string {
  if (typeof value === 'string') return value
  if (!holdsLongString(value, 0)) return JSON.stringify(value) ?? ''
  const long: string[] = []
  const skeleton = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' && item.length >= LONG_STRING ? (long.push(item), LONG_MARK) : item)) ?? ''
  // Split inside the quotes, which stay in the pieces around each string.
  const pieces = skeleton.split(JSON.stringify(LONG_MARK).slice(1, -1))
  let text = pieces[0]!
  for (let i = 0; i < long.length; i++) text += long[i]! + pieces[i + 1]!
  return text
}

/** Stands for a long string in the skeleton (a body's own strings would have to hold it exactly). */
const LONG_MARK = '\u0000agent-doubles:long-string\u0000'

/** Whether `value` holds a string of {@link LONG_STRING} characters or more (a few levels deep: tools nest their schemas). */
function holdsLongString(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.length >= LONG_STRING
  if (typeof value !== 'object' || value === null || depth > 8) return false
  if (Array.isArray(value)) {
    for (const item of value) if (holdsLongString(item, depth + 1)) return true
    return false
  }
  for (const key in value) if (holdsLongString((value as Record<string, unknown>)[key], depth + 1)) return true
  return false
}

/** The neutral layout of any request: tools, system, then every message part. No cache. */
export function neutralLayout(request: ModelRequest): PromptLayout {
  const blocks: LayoutBlock[] = []
  request.tools?.forEach((tool, i) => blocks.push({ where: `tools[${i}]`, text: textOfValue(tool) }))
  if (request.system) blocks.push({ where: 'system', text: request.system })
  request.messages.forEach((message, i) => message.content.forEach((part, j) => blocks.push(partBlock(part, `messages[${i}].content[${j}]`))))
  return { blocks, extraTokens: 0, cache: 'none' }
}

function partBlock(part: Part, where: string): LayoutBlock {
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'refusal':
      return { where, text: part.text }
    case 'tool-call':
      return { where, text: part.name + textOfValue(part.args) }
    case 'tool-result':
      return { where, text: textOfValue(part.result) }
    case 'image':
      return { where, text: part.url ?? part.data ?? '', fixedTokens: IMAGE_TOKENS }
  }
}
