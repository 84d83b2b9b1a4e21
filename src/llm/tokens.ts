/**
 * Token counts (SPEC §20): OpenAI models are counted with their real tokenizer (`o200k_base` or
 * `cl100k_base`, from the pure-JS `gpt-tokenizer` package), every other model with a documented
 * deterministic estimate. The tokenizer is loaded lazily — a dynamic import the first time a
 * count for an OpenAI model is needed — and counts are remembered, so an agent that sends the
 * same system prompt every turn has it tokenised once, and a scripted answer sent again is not
 * tokenised again for its usage.
 * @module
 */

import type { LoadedEncoding } from './tokenizer-load.js'

/** How a model's text is counted: one of OpenAI's encodings, or the estimate. */
export type TokenCounter = 'o200k_base' | 'cl100k_base' | 'estimate'

/** An OpenAI encoding (a real tokenizer). */
type Encoding = Exclude<TokenCounter, 'estimate'>

/** Models on `o200k_base`: GPT-4o and later, the o-series, GPT-5, gpt-oss. */
const O200K = /^(?:openai\/)?(?:gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o[1-9](?:$|-)|chatgpt-4o|gpt-oss|codex-|computer-use|gpt-realtime|gpt-audio|omni-)/i

/** Models on `cl100k_base`: GPT-4, GPT-3.5 Turbo, the embedding models. */
const CL100K = /^(?:openai\/)?(?:gpt-4(?:$|-)|gpt-4-|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)/i

/**
 * The counter used for `model`: OpenAI's encoding for OpenAI model names (by name, whatever
 * wire carries them: an Azure deployment named `gpt-4o` counts as GPT-4o), else `'estimate'`.
 * @example
 * tokenCounterFor('gpt-5-mini') // 'o200k_base'
 * tokenCounterFor('claude-sonnet-4-5') // 'estimate'
 */
export function tokenCounterFor(model: string): TokenCounter {
  // A test's requests name one model over and over: the last answer is kept.
  if (model === lastModel) return lastCounter
  lastCounter = O200K.test(model) ? 'o200k_base' : CL100K.test(model) ? 'cl100k_base' : 'estimate'
  lastModel = model
  return lastCounter
}

let lastModel: string | undefined
let lastCounter: TokenCounter = 'estimate'

/**
 * The documented estimate for models whose tokenizer is not public (Anthropic, Gemini, Bedrock,
 * local models): one token per four characters of text, rounded up, counted per block. It is the
 * rule of thumb the providers themselves give, and the same text always gives the same count.
 * @example
 * estimateTokenCount('Hello, world!') // 4
 */
export function estimateTokenCount(text: string): number {
  return Math.ceil(text.length / 4)
}

type CountFn = (text: string) => number

const counters: Partial<Record<Encoding, CountFn>> = {}
const loading: Partial<Record<Encoding, Promise<void>>> = {}

/**
 * Loads the tokenizer `model` needs, once per process. Returns `undefined` when counts for
 * `model` can be made now (already loaded, or estimated), so the hot path awaits nothing then.
 * @example
 * const wait = prepareTokenCounter('gpt-4o'); if (wait) await wait
 */
export function prepareTokenCounter(model: string): Promise<void> | undefined {
  const counter = tokenCounterFor(model)
  if (counter === 'estimate' || counters[counter]) return undefined
  return (loading[counter] ??= load(counter))
}

async function load(encoding: Encoding): Promise<void> {
  // Each encoding is its own module (its rank table is a few MB): only the one needed is read,
  // as JSON where its file has the generated shape (tokenizer-load.ts, loaded here: it reads
  // files, which a browser or an edge runtime cannot), else as the package's module.
  const fast = await import('./tokenizer-load.js').then((reader) => reader.loadEncodingFast(encoding)).catch(() => undefined)
  const module =
    fast ??
    ((encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base')) as LoadedEncoding)
  // Text that spells a special token (`<|endoftext|>`) is ordinary text in a prompt, as the API
  // treats it; the package would throw on it by default.
  const options = { disallowedSpecial: new Set<string>() }
  const count = (piece: string): number => module.countTokens(piece, options)
  plainCounters[encoding] = count
  counters[encoding] = (text) => countInPieces(count, text)
}

/** The tokenizers' own counts, of one piece at a time. */
const plainCounters: Partial<Record<Encoding, CountFn>> = {}

/**
 * Letters in one run beyond this are counted in pieces of this size. Byte-pair encoding is
 * quadratic in the length of one pre-token: a 16k-letter run (`'x'.repeat(16384)`, a hostile
 * prompt) takes the tokenizer over a second, and would stall every test sharing the proxy.
 */
const LONG_RUN = 256
const LONG_RUNS = /[\p{L}\p{M}]{257,}/gu
/** Plain text is counted in pieces of about this size, cut before a space so no word is split. */
const PIECE = 8192

/**
 * `text`'s tokens, counted in pieces: exactly the whole's count for text of words, and bounded
 * time for runs of letters longer than {@link LONG_RUN} (counted a piece at a time: an
 * approximation only such runs get).
 */
function countInPieces(count: (text: string) => number, text: string): number {
  if (text.length <= LONG_RUN) return count(text)
  let total = 0
  // A long run mostly repeats itself ('xxxx…'): its pieces are counted once each.
  const runPieces = new Map<string, number>()
  for (const piece of piecesOf(text)) total += countPiece(count, piece, runPieces)
  return total
}

/** One piece's count; pieces of long runs are counted once each per text. */
function countPiece(count: (text: string) => number, piece: string, runPieces: Map<string, number>): number {
  if (piece.length !== LONG_RUN) return count(piece)
  let counted = runPieces.get(piece)
  if (counted === undefined) runPieces.set(piece, (counted = count(piece)))
  return counted
}

/** `text` in the pieces it is counted in: plain text cut before spaces, long runs of letters in {@link LONG_RUN}s. */
function* piecesOf(text: string): Generator<string> {
  if (text.length > RUN_WINDOW) return yield* windowedPieces(text)
  let at = 0
  for (const run of text.matchAll(LONG_RUNS)) {
    yield* plainPieces(text.slice(at, run.index))
    for (let i = 0; i < run[0].length; i += LONG_RUN) yield run[0].slice(i, i + LONG_RUN)
    at = run.index + run[0].length
  }
  yield* plainPieces(at === 0 ? text : text.slice(at))
}

/** How much of a long text is searched for runs of letters at once. */
const RUN_WINDOW = 64 * 1024
/** The first run of more than {@link LONG_RUN} letters. */
const FIRST_RUN = /[\p{L}\p{M}]{257,}/u
/** Letters from the start of a text (a run's continuation). */
const LETTERS = /^[\p{L}\p{M}]*/u

/**
 * {@link piecesOf} for a long text: the same pieces, found a window at a time, so a caller giving
 * the event loop turns between pieces is never held by one search of megabytes (SPEC §24).
 * Windows overlap by a run's length, so a run across a window's end is found whole in the next
 * window, or, already a run at the end of this one, followed into the next ones.
 */
function* windowedPieces(text: string): Generator<string> {
  // Plain text is given up to `start`, searched for runs up to `from`.
  let start = 0
  let from = 0
  while (from < text.length) {
    const end = Math.min(text.length, from + RUN_WINDOW)
    const run = FIRST_RUN.exec(text.slice(from, end))
    if (!run) {
      // No run starts before `known`: the plain text goes on at least that far.
      const known = end === text.length ? end : end - LONG_RUN
      start = yield* plainPiecesTo(text, start, known, known === text.length)
      from = known
      continue
    }
    const runStart = from + run.index
    start = yield* plainPiecesTo(text, start, runStart, true)
    let runEnd = runStart + run[0].length
    // A run up to the window's end may go on past it: followed a window at a time.
    let open = runEnd === end && end < text.length
    for (let i = runStart; ; ) {
      for (; i + LONG_RUN <= runEnd; i += LONG_RUN) yield text.slice(i, i + LONG_RUN)
      if (!open) {
        if (i < runEnd) yield text.slice(i, runEnd)
        break
      }
      const next = text.slice(runEnd, runEnd + RUN_WINDOW)
      const more = LETTERS.exec(next)![0].length
      runEnd += more
      open = more === next.length && runEnd < text.length
    }
    start = from = runEnd
  }
}

/**
 * The pieces {@link plainPieces} cuts plain text from `start` into, as far as they are known
 * when the plain text goes on at least to `to` (`final`: ends at `to`). Returns where the pieces
 * given end.
 */
function* plainPiecesTo(text: string, start: number, to: number, final: boolean): Generator<string, number> {
  // A cut reads one character past the piece: not known until the text goes past it.
  while (to - start > PIECE + (final ? 0 : 1)) {
    let cut = text.lastIndexOf(' ', start + PIECE)
    while (cut > start && /\s/.test(text[cut + 1] ?? '')) cut = text.lastIndexOf(' ', cut - 1)
    if (cut <= start + PIECE / 2) cut = start + PIECE
    yield text.slice(start, cut)
    start = cut
  }
  if (final && to > start) {
    yield text.slice(start, to)
    return to
  }
  return start
}

function* plainPieces(text: string): Generator<string> {
  let start = 0
  while (text.length - start > PIECE) {
    // Cut before a space that starts a word: pre-tokens begin there, so the pieces' counts add up.
    let cut = text.lastIndexOf(' ', start + PIECE)
    while (cut > start && /\s/.test(text[cut + 1] ?? '')) cut = text.lastIndexOf(' ', cut - 1)
    if (cut <= start + PIECE / 2) cut = start + PIECE
    yield text.slice(start, cut)
    start = cut
  }
  if (text.length > start) yield start === 0 ? text : text.slice(start)
}

/** Texts at least this long are counted by {@link countWithTurns} in slices, giving the event loop turns. */
export const SLICED_FROM = 64 * 1024

/**
 * {@link countWith}, for a text long enough to hold the event loop (a 7 MB prompt takes the
 * tokenizer seconds on a loaded machine): counted a piece at a time, calling `turn` between
 * pieces so the caller can give the event loop a turn (see `LoopSlices`). The same count as
 * {@link countWith}, remembered the same way.
 */
export async function countWithTurns(counter: TokenCounter, text: string, turn: () => Promise<void> | undefined): Promise<number> {
  const count = counter === 'estimate' ? undefined : plainCounters[counter]
  if (!count || text.length < SLICED_FROM) return countWith(counter, text)
  const known = remembered[counter as Encoding].get(text)
  if (known !== undefined) return known
  let total = 0
  const runPieces = new Map<string, number>()
  for (const piece of piecesOf(text)) {
    total += countPiece(count, piece, runPieces)
    const pause = turn()
    if (pause) await pause
  }
  remember(counter as Encoding, text, total)
  return total
}

/*
 * Every count is remembered. Even a short text costs the tokenizer a pass of its pre-token
 * pattern and a rank lookup per word (a 48-word scripted answer's usage was about 8 % of the
 * proxy's CPU per stream, and a role name is counted for every message), where a remembered
 * count is one map lookup.
 */
/** How many characters of remembered texts are kept before the memory starts over. */
const REMEMBER_CHARS = 32 * 1024 * 1024
/** How many texts are remembered before the memory starts over (many short texts weigh more than their characters). */
const REMEMBER_TEXTS = 64 * 1024

/** Remembered counts, per encoding. */
const remembered: Record<Encoding, Map<string, number>> = { o200k_base: new Map(), cl100k_base: new Map() }
let rememberedChars = 0
let rememberedTexts = 0

/**
 * Tokens in `text` for `model`: the real tokenizer's count for an OpenAI model once it is loaded
 * ({@link prepareTokenCounter}), else the estimate. Synchronous; each text is tokenised once.
 * @example
 * await prepareTokenCounter('gpt-4o')
 * countTokens('Hello, world!', 'gpt-4o') // 4
 */
export function countTokens(text: string, model: string): number {
  return countWith(tokenCounterFor(model), text)
}

/** Tokens in `text` with `counter` (the estimate when its tokenizer is not loaded yet). */
export function countWith(counter: TokenCounter, text: string): number {
  if (text === '') return 0
  if (counter === 'estimate') return estimateTokenCount(text)
  const count = counters[counter]
  if (!count) return estimateTokenCount(text)
  const memory = remembered[counter]
  const known = memory.get(text)
  if (known !== undefined) return known
  const counted = count(text)
  remember(counter, text, counted)
  return counted
}

function remember(encoding: Encoding, text: string, counted: number): void {
  if (rememberedChars + text.length > REMEMBER_CHARS || rememberedTexts >= REMEMBER_TEXTS) {
    remembered.o200k_base.clear()
    remembered.cl100k_base.clear()
    rememberedChars = 0
    rememberedTexts = 0
  }
  remembered[encoding].set(text, counted)
  rememberedChars += text.length
  rememberedTexts++
}

/** Whether `counter` counts with a real tokenizer now (loaded), rather than the estimate. */
export function isExact(counter: TokenCounter): boolean {
  return counter !== 'estimate' && counters[counter] !== undefined
}
