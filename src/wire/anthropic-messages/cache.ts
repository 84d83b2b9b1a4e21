/**
 * Anthropic's prompt layout and `cache_control` rules (SPEC §20): blocks in the order the cache
 * reads them — tools, then system, then messages — each `cache_control: { type: 'ephemeral',
 * ttl? }` a breakpoint; more than 4 breakpoints, one on an empty text block, an unknown type or
 * TTL, or a 1-hour breakpoint after a 5-minute one are Anthropic's 400s, in its own words.
 * Bedrock's InvokeModel carries the same body and rules.
 * @module
 */
import { BadRequest, record } from '../dialect.js'
import { IMAGE_TOKENS, textOfValue, type LayoutBlock, type PromptLayout } from '../prompt-layout.js'

/** Anthropic's limit on `cache_control` blocks in one request. */
export const MAX_BREAKPOINTS = 4

/** The prompt of a Messages body, laid out; throws {@link BadRequest} on a bad `cache_control`. */
export function anthropicLayout(json: Record<string, unknown>): PromptLayout {
  const blocks: LayoutBlock[] = []
  const add = (raw: unknown, where: string, path: string, text: string, fixedTokens?: number): void => {
    const block: LayoutBlock = { where, text }
    if (fixedTokens !== undefined) block.fixedTokens = fixedTokens
    const control = record(raw).cache_control
    if (control !== undefined && control !== null) {
      block.ttl = ttlOf(control, path)
      if (record(raw).type === 'text' && text === '') throw new BadRequest(`${path}.text: cache_control cannot be set for empty text blocks`, `${path}.cache_control`)
    }
    blocks.push(block)
  }
  if (Array.isArray(json.tools)) {
    json.tools.forEach((tool, i) => {
      const { cache_control: _, ...definition } = record(tool)
      add(tool, `tools[${i}]`, `tools.${i}`, textOfValue(definition))
    })
  }
  if (typeof json.system === 'string') blocks.push({ where: 'system', text: json.system })
  else if (Array.isArray(json.system)) json.system.forEach((block, i) => add(block, `system[${i}]`, `system.${i}`, blockText(block)))
  if (Array.isArray(json.messages)) {
    json.messages.forEach((message, i) => {
      const content = record(message).content
      if (typeof content === 'string') blocks.push({ where: `messages[${i}].content`, text: content })
      else if (Array.isArray(content)) {
        content.forEach((block, j) => {
          const type = record(block).type
          add(block, `messages[${i}].content[${j}]`, `messages.${i}.content.${j}`, blockText(block), type === 'image' || type === 'document' ? IMAGE_TOKENS : undefined)
        })
      }
    })
  }
  checkBreakpoints(blocks)
  return { blocks, extraTokens: 0, cache: 'explicit' }
}

/** The TTL of one `cache_control`, or Anthropic's 400. */
function ttlOf(control: unknown, path: string): '5m' | '1h' {
  const fields = record(control)
  if (fields.type !== 'ephemeral') throw new BadRequest(`${path}.cache_control.type: Input should be 'ephemeral'`, `${path}.cache_control.type`)
  const ttl = fields.ttl
  if (ttl === undefined || ttl === '5m') return '5m'
  if (ttl === '1h') return '1h'
  throw new BadRequest(`${path}.cache_control.ephemeral.ttl: Input should be '5m' or '1h'`, `${path}.cache_control.ttl`)
}

function checkBreakpoints(blocks: readonly LayoutBlock[]): void {
  const marked = blocks.filter((block) => block.ttl !== undefined)
  if (marked.length > MAX_BREAKPOINTS) {
    throw new BadRequest(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marked.length}.`)
  }
  const firstShort = marked.findIndex((block) => block.ttl === '5m')
  if (firstShort !== -1 && marked.slice(firstShort).some((block) => block.ttl === '1h')) {
    throw new BadRequest("a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.")
  }
}

/** The text of one content block as counted and compared. */
function blockText(raw: unknown): string {
  const block = record(raw)
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? block.text : ''
    case 'thinking':
      return typeof block.thinking === 'string' ? block.thinking : ''
    case 'tool_use':
      return `${typeof block.name === 'string' ? block.name : ''}${textOfValue(block.input ?? {})}`
    case 'tool_result':
      return Array.isArray(block.content) ? block.content.map(blockText).join('') : textOfValue(block.content ?? '')
    case 'image':
    case 'document':
      return textOfValue(block.source ?? '')
    default: {
      const { cache_control: _, ...rest } = block
      return textOfValue(rest)
    }
  }
}
