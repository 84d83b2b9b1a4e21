/**
 * The Gemini prompt as it is counted and implicitly cached (SPEC §20): tools, the system
 * instruction's parts, then every part of every content. Gemini 2.5 and later cache long
 * prefixes by themselves (implicit caching) and report `cachedContentTokenCount`.
 * @module
 */
import { record } from '../dialect.js'
import { IMAGE_TOKENS, textOfValue, type LayoutBlock, type PromptLayout } from '../prompt-layout.js'

/** The prompt of a `generateContent` body, laid out. */
export function geminiLayout(json: Record<string, unknown>): PromptLayout {
  const blocks: LayoutBlock[] = []
  if (Array.isArray(json.tools)) json.tools.forEach((tool, i) => blocks.push({ where: `tools[${i}]`, text: textOfValue(tool) }))
  const system = record(json.systemInstruction ?? json.system_instruction)
  if (Array.isArray(system.parts)) system.parts.forEach((part, i) => blocks.push(partBlock(part, `systemInstruction.parts[${i}]`)))
  if (Array.isArray(json.contents)) {
    json.contents.forEach((content, i) => {
      const parts = record(content).parts
      if (Array.isArray(parts)) parts.forEach((part, j) => blocks.push(partBlock(part, `contents[${i}].parts[${j}]`)))
    })
  }
  return { blocks, extraTokens: 0, cache: 'automatic' }
}

function partBlock(raw: unknown, where: string): LayoutBlock {
  const part = record(raw)
  if (typeof part.text === 'string') return { where, text: part.text }
  if (part.inlineData !== undefined || part.inline_data !== undefined || part.fileData !== undefined) {
    return { where, text: textOfValue(part.inlineData ?? part.inline_data ?? part.fileData), fixedTokens: IMAGE_TOKENS }
  }
  return { where, text: textOfValue(raw) }
}
