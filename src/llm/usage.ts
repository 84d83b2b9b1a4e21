/**
 * Token counts for scripted answers: a deterministic estimate from the text, or fixed numbers.
 * @module
 */
import type { ModelRequest, Part, Usage } from './types.js'

/**
 * How a {@link ScriptedLLM} counts tokens: `'estimate'` (about four characters a token, the
 * same numbers for the same text on every run) or fixed counts reported for every call.
 */
export type UsageOption = 'estimate' | Usage

/** Tokens in `text`, estimated as one per four characters (rounded up). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** The text a part contributes to a token count; tool arguments and results count as JSON. */
function partText(part: Part): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
    case 'refusal':
      return part.text
    case 'tool-call':
      return part.name + (part.argsText ?? stringify(part.args))
    case 'tool-result':
      return stringify(part.result)
    case 'image':
      // An image costs something; a fixed share keeps the estimate deterministic.
      return ' '.repeat(4 * 85)
  }
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value
  return JSON.stringify(value) ?? ''
}

/** The text of an answer's parts, as token counts read it. */
export function partsText(content: readonly Part[]): string {
  return content.map(partText).join('')
}

/** Which counts of a usage were estimated rather than given by a reply or the `usage` option. */
const estimated = new WeakMap<Usage, { input: boolean; output: boolean }>()

/**
 * Which counts of `usage` a ScriptedLLM estimated (none for counts a test gave): a FakeProxy
 * replaces estimated counts with its own, made with the model's tokenizer. @internal
 */
export function estimatedCounts(usage: Usage): { input: boolean; output: boolean } {
  return estimated.get(usage) ?? NONE
}

const NONE = Object.freeze({ input: false, output: false })
const BOTH = Object.freeze({ input: true, output: true })
const INPUT = Object.freeze({ input: true, output: false })
const OUTPUT = Object.freeze({ input: false, output: true })

/** A usage whose counts are both estimates (a FakeProxy counts them again). @internal */
export function estimatedUsage(inputTokens: number, outputTokens: number): Usage {
  const usage = { inputTokens, outputTokens }
  estimated.set(usage, BOTH)
  return usage
}

/** Estimated input tokens of a request: the system prompt and every message part. */
export function estimateInputTokens(req: ModelRequest): number {
  // The estimate reads only the length: the texts are added up, not joined.
  let chars = req.system?.length ?? 0
  for (const message of req.messages) for (const part of message.content) chars += partText(part).length
  return Math.ceil(chars / 4)
}

/** Estimated output tokens of an answer's parts. */
export function estimateOutputTokens(content: Part[]): number {
  let chars = 0
  for (const part of content) chars += partText(part).length
  return Math.ceil(chars / 4)
}

/**
 * The usage reported for one call: counts the reply gave win, then fixed counts from the
 * option, then the estimate.
 */
export function usageFor(
  option: UsageOption,
  req: ModelRequest,
  content: Part[],
  given: Partial<Usage> | undefined,
): Usage {
  const base: Usage =
    option === 'estimate'
      ? { inputTokens: estimateInputTokens(req), outputTokens: estimateOutputTokens(content) }
      : { inputTokens: option.inputTokens, outputTokens: option.outputTokens }
  const usage: Usage = {
    inputTokens: given?.inputTokens ?? base.inputTokens,
    outputTokens: given?.outputTokens ?? base.outputTokens,
  }
  if (option === 'estimate') {
    const input = given?.inputTokens === undefined
    const output = given?.outputTokens === undefined
    if (input || output) estimated.set(usage, input ? (output ? BOTH : INPUT) : OUTPUT)
  }
  return usage
}

/** Whether `value` is a fixed `{ inputTokens, outputTokens }` pair of non-negative integers. */
export function isUsage(value: unknown): value is Usage {
  if (value === null || typeof value !== 'object') return false
  const { inputTokens, outputTokens } = value as Record<string, unknown>
  return isCount(inputTokens) && isCount(outputTokens)
}

/** Whether `value` is a token count: a non-negative integer. */
export function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0
}
