/**
 * The Bedrock Converse prompt as it is counted and cached (SPEC §20): `toolConfig.tools`, then
 * `system`, then each message's content. A `{ cachePoint: { type: 'default', ttl? } }` entry
 * marks the content before it as a cache breakpoint (at most 4, as for Anthropic); usage reports
 * `cacheReadInputTokens` and `cacheWriteInputTokens`.
 * @module
 */
import { BadRequest, record } from '../dialect.js'
import { IMAGE_TOKENS, textOfValue, type LayoutBlock, type PromptLayout } from '../prompt-layout.js'

/** Bedrock's limit on cache checkpoints in one request. */
const MAX_CACHE_POINTS = 4

/** The prompt of a Converse body, laid out; throws {@link BadRequest} on a bad `cachePoint`. */
export function converseLayout(json: Record<string, unknown>): PromptLayout {
  const blocks: LayoutBlock[] = []
  let points = 0
  const read = (items: unknown, where: (i: number) => string, text: (item: Record<string, unknown>) => LayoutBlock | undefined): void => {
    if (!Array.isArray(items)) return
    items.forEach((raw, i) => {
      const item = record(raw)
      if (item.cachePoint !== undefined) {
        points++
        const point = record(item.cachePoint)
        if (point.type !== 'default') throw new BadRequest(`The value at ${where(i)}.cachePoint.type is invalid: expected 'default'.`)
        const ttl = point.ttl === undefined || point.ttl === '5m' ? '5m' : point.ttl === '1h' ? '1h' : undefined
        if (!ttl) throw new BadRequest(`The value at ${where(i)}.cachePoint.ttl is invalid: expected '5m' or '1h'.`)
        const last = blocks.at(-1)
        if (!last) throw new BadRequest('A cachePoint cannot be the first block of the prompt; put it after the content to cache.')
        last.ttl = ttl
        return
      }
      const block = text(item)
      if (block) blocks.push({ ...block, where: where(i) })
    })
  }
  read(record(json.toolConfig).tools, (i) => `toolConfig.tools[${i}]`, (tool) => ({ where: '', text: textOfValue(tool.toolSpec ?? tool) }))
  read(json.system, (i) => `system[${i}]`, (block) => ({ where: '', text: typeof block.text === 'string' ? block.text : textOfValue(block) }))
  if (Array.isArray(json.messages)) {
    json.messages.forEach((message, m) => read(record(message).content, (i) => `messages[${m}].content[${i}]`, contentBlock))
  }
  if (points > MAX_CACHE_POINTS) throw new BadRequest(`The number of cache checkpoints (${points}) exceeds the maximum of ${MAX_CACHE_POINTS}.`)
  return { blocks, extraTokens: 0, cache: 'explicit' }
}

function contentBlock(block: Record<string, unknown>): LayoutBlock {
  if (typeof block.text === 'string') return { where: '', text: block.text }
  if (block.toolUse !== undefined) {
    const use = record(block.toolUse)
    return { where: '', text: `${textOfValue(use.name ?? '')}${textOfValue(use.input ?? {})}` }
  }
  if (block.toolResult !== undefined) return { where: '', text: textOfValue(record(block.toolResult).content ?? '') }
  if (block.image !== undefined || block.document !== undefined) return { where: '', text: textOfValue(block.image ?? block.document), fixedTokens: IMAGE_TOKENS }
  return { where: '', text: textOfValue(block) }
}
