/**
 * The prompt cache of one lane (SPEC §20), simulated as the providers run theirs: explicit
 * breakpoints (Anthropic `cache_control`, Bedrock `cachePoint`) with their TTLs, the model's
 * minimum and the 20-block lookback; automatic prefix caching (OpenAI in 128-token steps from
 * 1024, Gemini's implicit caching). Entries expire on `Date.now()`, so a test's fake timers
 * move them. It also says, for each request that read nothing, why.
 * @module
 */

/** One block of a prompt in prefix order (tools → system → messages), as a dialect lays it out. */
export interface CacheBlock {
  /** Where the block is in the request body: `system[0]`, `tools[2]`, `messages[3].content[1]`. */
  where: string
  /** Its text as compared between requests (tool definitions and arguments as JSON). */
  text: string
  /** Its tokens, framing included. */
  tokens: number
  /** A breakpoint on it (`cache_control`, the `cachePoint` after it): its TTL in milliseconds. */
  breakpointMs?: number
  /** The breakpoint's TTL is Anthropic's `1h` (counted apart in `cache_creation`). */
  longTtl?: boolean
}

/** A prompt laid out for the cache. */
export interface CachePrompt {
  /** `explicit`: only breakpoints cache (Anthropic, Bedrock); `automatic`: every long prefix does (OpenAI, Gemini). */
  mode: 'explicit' | 'automatic'
  blocks: CacheBlock[]
  /** The shortest prefix cached, in tokens. */
  minTokens: number
  /** Automatic caching reads whole steps of this many tokens past the minimum (OpenAI 128, Gemini 1). */
  step: number
  /** Automatic caching: how long an entry lives after its last use, in milliseconds. */
  ttlMs: number
  /** Entries are shared only within one partition (the model, and OpenAI's `prompt_cache_key`). */
  partition: string
  /** Counts the first `chars` characters of block `index` (a prefix shared part-way into a block). */
  countPrefix(index: number, chars: number): number
}

/** Why a request read nothing (or little) from the cache. */
export type CacheMiss =
  | { reason: 'no-breakpoint' }
  | { reason: 'below-minimum'; tokens: number; minimum: number }
  | { reason: 'first' }
  | { reason: 'expired'; expiredMsAgo: number; ttlMs: number }
  | { reason: 'differs'; where: string; block: number; offset: number; cached: string; now: string }

/** What the cache did for one request. */
export interface CacheOutcome {
  read: number
  write: number
  /** Of `write`, tokens written with a one-hour TTL. */
  write1h: number
  /** Set when the request read nothing from the cache, or less than its whole cacheable prefix. */
  miss?: CacheMiss
}

/** One cached prefix. */
interface Entry {
  partition: string
  texts: string[]
  wheres: string[]
  tokens: number
  ttlMs: number
  expiresAt: number
}

/** How many blocks before a breakpoint Anthropic looks for an earlier entry. */
const LOOKBACK = 20
/** Entries kept per lane; the least recently used goes first. */
const MAX_ENTRIES = 64
/** Characters of context shown on each side of the first difference. */
const AROUND = 40

/** The simulated prompt cache of one lane (or proxy). */
export class PromptCache {
  #entries: Entry[] = []

  /** Forgets every entry (the lane's `reset()`). */
  clear(): void {
    // A new list only when there is something to forget: every lane's reset and close comes here.
    if (this.#entries.length > 0) this.#entries = []
  }

  /** Serves `prompt` at time `now` (ms): what it read and wrote, and why it missed. */
  serve(prompt: CachePrompt, now: number): CacheOutcome {
    return prompt.mode === 'explicit' ? this.#explicit(prompt, now) : this.#automatic(prompt, now)
  }

  #explicit(prompt: CachePrompt, now: number): CacheOutcome {
    const { blocks } = prompt
    // Most requests mark no breakpoint: they are answered before anything is added up.
    if (!blocks.some((block) => block.breakpointMs !== undefined)) return { read: 0, write: 0, write1h: 0, miss: { reason: 'no-breakpoint' } }
    const cumulative = prefixSums(blocks)
    const breakpoints = blocks.flatMap((block, index) => (block.breakpointMs === undefined ? [] : [index]))
    // A hit: a live entry whose prefix ends at a breakpoint or up to 20 blocks before one.
    let hit: { entry: Entry; end: number } | undefined
    for (const entry of this.#entries) {
      if (entry.partition !== prompt.partition || entry.expiresAt <= now) continue
      const end = entry.texts.length - 1
      if (hit && end <= hit.end) continue
      if (!breakpoints.some((bp) => end <= bp && end >= bp - LOOKBACK)) continue
      if (samePrefix(entry, blocks)) hit = { entry, end }
    }
    const readEnd = hit ? hit.end : -1
    if (hit) this.#touch(hit.entry, now)
    const read = hit ? cumulative[hit.end]! : 0
    const lastBp = breakpoints.at(-1)!
    // Why it read nothing, judged against the entries as they were before this request wrote.
    const miss: CacheMiss | undefined =
      read > 0 ? undefined : cumulative[lastBp]! < prompt.minTokens ? { reason: 'below-minimum', tokens: cumulative[lastBp]!, minimum: prompt.minTokens } : this.#why(prompt, now)
    let write = 0
    let write1h = 0
    let written = read
    for (const bp of breakpoints) {
      if (bp <= readEnd || cumulative[bp]! < prompt.minTokens) continue
      const segment = cumulative[bp]! - written
      write += segment
      if (blocks[bp]!.longTtl) write1h += segment
      written = cumulative[bp]!
      this.#add({ partition: prompt.partition, texts: blocks.slice(0, bp + 1).map((b) => b.text), wheres: blocks.slice(0, bp + 1).map((b) => b.where), tokens: cumulative[bp]!, ttlMs: blocks[bp]!.breakpointMs!, expiresAt: now + blocks[bp]!.breakpointMs! })
    }
    const outcome: CacheOutcome = { read, write, write1h }
    if (miss) outcome.miss = miss
    return outcome
  }

  #automatic(prompt: CachePrompt, now: number): CacheOutcome {
    const { blocks } = prompt
    const total = blocks.reduce((sum, block) => sum + block.tokens, 0)
    if (total < prompt.minTokens) return { read: 0, write: 0, write1h: 0, miss: { reason: 'below-minimum', tokens: total, minimum: prompt.minTokens } }
    let best: { entry: Entry; blocks: number; tokens: number } | undefined
    for (const entry of this.#entries) {
      if (entry.partition !== prompt.partition || entry.expiresAt <= now) continue
      const shared = sharedBlocks(entry, blocks)
      if (best && shared <= best.blocks) continue
      best = { entry, blocks: shared, tokens: 0 }
    }
    let read = 0
    if (best) {
      let tokens = 0
      for (let i = 0; i < best.blocks; i++) tokens += blocks[i]!.tokens
      // A prefix shared part-way into the next block counts up to where they part.
      const next = best.blocks
      if (next < blocks.length && next < best.entry.texts.length) tokens += prompt.countPrefix(next, commonLength(best.entry.texts[next]!, blocks[next]!.text))
      best.tokens = tokens
      if (tokens >= prompt.minTokens) read = prompt.minTokens + Math.floor((tokens - prompt.minTokens) / prompt.step) * prompt.step
      if (read > 0) this.#touch(best.entry, now)
    }
    const miss = read === 0 ? this.#why(prompt, now) : undefined
    const same = best && best.blocks === blocks.length && best.entry.texts.length === blocks.length
    if (same) this.#touch(best!.entry, now)
    else this.#add({ partition: prompt.partition, texts: blocks.map((b) => b.text), wheres: blocks.map((b) => b.where), tokens: total, ttlMs: prompt.ttlMs, expiresAt: now + prompt.ttlMs })
    const outcome: CacheOutcome = { read, write: 0, write1h: 0 }
    if (miss) outcome.miss = miss
    return outcome
  }

  /**
   * Why a prompt read nothing: the entry sharing the longest prefix with it (live or expired)
   * is found, and either it expired, or the first block and character where they part is shown.
   */
  #why(prompt: CachePrompt, now: number): CacheMiss {
    let best: { entry: Entry; blocks: number; chars: number } | undefined
    for (const entry of this.#entries) {
      if (entry.partition !== prompt.partition) continue
      const shared = sharedBlocks(entry, prompt.blocks)
      const chars = shared < entry.texts.length && shared < prompt.blocks.length ? commonLength(entry.texts[shared]!, prompt.blocks[shared]!.text) : 0
      if (best && (shared < best.blocks || (shared === best.blocks && chars <= best.chars))) continue
      best = { entry, blocks: shared, chars }
    }
    if (!best) return { reason: 'first' }
    const { entry, blocks: at, chars } = best
    const matchesWhole = at === entry.texts.length || (prompt.mode === 'explicit' && at >= entry.texts.length)
    if (matchesWhole && entry.expiresAt <= now) return { reason: 'expired', expiredMsAgo: now - entry.expiresAt, ttlMs: entry.ttlMs }
    const cachedText = entry.texts[at] ?? ''
    const nowText = prompt.blocks[at]?.text ?? ''
    return {
      reason: 'differs',
      where: prompt.blocks[at]?.where ?? entry.wheres[at] ?? `block ${at}`,
      block: at,
      offset: chars,
      cached: around(cachedText, chars),
      now: around(nowText, chars),
    }
  }

  #touch(entry: Entry, now: number): void {
    entry.expiresAt = now + entry.ttlMs
    const at = this.#entries.indexOf(entry)
    if (at !== this.#entries.length - 1) {
      this.#entries.splice(at, 1)
      this.#entries.push(entry)
    }
  }

  #add(entry: Entry): void {
    // The same prefix again replaces the old entry (a refresh).
    const same = this.#entries.findIndex((old) => old.partition === entry.partition && old.texts.length === entry.texts.length && sharedBlocks(old, entry.texts.map((text) => ({ text }))) === old.texts.length)
    if (same !== -1) this.#entries.splice(same, 1)
    this.#entries.push(entry)
    if (this.#entries.length > MAX_ENTRIES) this.#entries.shift()
  }
}

function prefixSums(blocks: readonly CacheBlock[]): number[] {
  const sums: number[] = []
  let sum = 0
  for (const block of blocks) sums.push((sum += block.tokens))
  return sums
}

/** Whether every block of `entry` equals the prompt's block at the same place. */
function samePrefix(entry: Entry, blocks: readonly { text: string }[]): boolean {
  if (entry.texts.length > blocks.length) return false
  return sharedBlocks(entry, blocks) === entry.texts.length
}

/** How many leading blocks `entry` and the prompt share. */
function sharedBlocks(entry: Entry, blocks: readonly { text: string }[]): number {
  const n = Math.min(entry.texts.length, blocks.length)
  let i = 0
  while (i < n && entry.texts[i] === blocks[i]!.text) i++
  return i
}

/** The length of the common start of `a` and `b`. */
function commonLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

/** `text` around character `at`, with `…` where it was cut. */
function around(text: string, at: number): string {
  const start = Math.max(0, at - AROUND)
  const end = Math.min(text.length, at + AROUND)
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`
}
