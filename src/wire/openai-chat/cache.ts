/**
 * The Chat Completions prompt as OpenAI counts and caches it (SPEC §20): tools first, then each
 * message with its framing (`<|im_start|>role<|im_sep|>…<|im_end|>`: 3 tokens and the role's),
 * then 3 tokens priming the reply — the formula OpenAI documents, which makes `prompt_tokens`
 * of a text-only chat equal to the tokenizer's chat encoding. Caching is automatic, per
 * `prompt_cache_key`.
 * @module
 */
import { record } from '../dialect.js'
import { IMAGE_TOKENS, textOfValue, type LayoutBlock, type PromptLayout } from '../prompt-layout.js'

/** Tokens framing each message: `<|im_start|>`, `<|im_sep|>`, `<|im_end|>`. */
export const MESSAGE_FRAMING = 3
/** Tokens priming the reply: `<|im_start|>assistant<|im_sep|>`. */
export const REPLY_PRIMING = 3

/** The prompt of a Chat Completions body, laid out. */
export function chatLayout(json: Record<string, unknown>, roleTokens: (role: string) => number): PromptLayout {
  const blocks: LayoutBlock[] = []
  if (Array.isArray(json.tools)) json.tools.forEach((tool, i) => blocks.push({ where: `tools[${i}]`, text: textOfValue(tool) }))
  if (Array.isArray(json.messages)) {
    json.messages.forEach((raw, i) => {
      const message = record(raw)
      const role = typeof message.role === 'string' ? message.role : 'user'
      const own: LayoutBlock[] = []
      const content = message.content
      if (typeof content === 'string') own.push({ where: `messages[${i}].content`, text: content })
      else if (Array.isArray(content)) {
        content.forEach((part, j) => {
          const fields = record(part)
          const where = `messages[${i}].content[${j}]`
          if (typeof fields.text === 'string') own.push({ where, text: fields.text })
          else if (typeof fields.refusal === 'string') own.push({ where, text: fields.refusal })
          else own.push({ where, text: textOfValue(fields.image_url ?? fields.input_audio ?? fields.file ?? part), fixedTokens: IMAGE_TOKENS })
        })
      }
      if (Array.isArray(message.tool_calls)) {
        message.tool_calls.forEach((call, j) => {
          const fn = record(record(call).function)
          own.push({ where: `messages[${i}].tool_calls[${j}]`, text: `${textOfValue(fn.name ?? '')}${textOfValue(fn.arguments ?? '')}` })
        })
      }
      if (own.length === 0) own.push({ where: `messages[${i}]`, text: '' })
      const name = typeof message.name === 'string' ? 1 : 0
      own[0]!.overhead = MESSAGE_FRAMING + roleTokens(role) + name
      for (const block of own) blocks.push(block)
    })
  }
  const layout: PromptLayout = { blocks, extraTokens: REPLY_PRIMING, cache: 'automatic' }
  if (typeof json.prompt_cache_key === 'string') layout.cacheKey = json.prompt_cache_key
  if (typeof json.prompt_cache_retention === 'string') layout.retention = json.prompt_cache_retention
  return layout
}
