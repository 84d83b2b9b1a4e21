/**
 * The Responses prompt as OpenAI counts and caches it (SPEC §20): tools, `instructions` (a
 * system message), then each input item framed as a chat message, then the reply priming.
 * Caching is automatic, per `prompt_cache_key`.
 * @module
 */
import { record } from '../dialect.js'
import { MESSAGE_FRAMING, REPLY_PRIMING } from '../openai-chat/cache.js'
import { IMAGE_TOKENS, textOfValue, type LayoutBlock, type PromptLayout } from '../prompt-layout.js'

/** The prompt of a Responses body, laid out. */
export function responsesLayout(json: Record<string, unknown>, roleTokens: (role: string) => number): PromptLayout {
  const blocks: LayoutBlock[] = []
  if (Array.isArray(json.tools)) json.tools.forEach((tool, i) => blocks.push({ where: `tools[${i}]`, text: textOfValue(tool) }))
  if (typeof json.instructions === 'string') blocks.push({ where: 'instructions', text: json.instructions, overhead: MESSAGE_FRAMING + roleTokens('system') })
  const input = json.input
  if (typeof input === 'string') blocks.push({ where: 'input', text: input, overhead: MESSAGE_FRAMING + roleTokens('user') })
  else if (Array.isArray(input)) {
    input.forEach((raw, i) => {
      const item = record(raw)
      const own: LayoutBlock[] = []
      const content = item.content
      if (typeof content === 'string') own.push({ where: `input[${i}].content`, text: content })
      else if (Array.isArray(content)) {
        content.forEach((part, j) => {
          const fields = record(part)
          const where = `input[${i}].content[${j}]`
          if (typeof fields.text === 'string') own.push({ where, text: fields.text })
          else own.push({ where, text: textOfValue(fields.image_url ?? fields.file_id ?? part), fixedTokens: IMAGE_TOKENS })
        })
      } else if (item.type === 'function_call') own.push({ where: `input[${i}]`, text: `${textOfValue(item.name ?? '')}${textOfValue(item.arguments ?? '')}` })
      else if (item.type === 'function_call_output') own.push({ where: `input[${i}].output`, text: textOfValue(item.output ?? '') })
      else if (item.type === 'reasoning') own.push({ where: `input[${i}]`, text: textOfValue(item.summary ?? '') })
      else own.push({ where: `input[${i}]`, text: textOfValue(item) })
      // An empty `content: []` lays out no text, but the message is still framed (found by the fuzz pass).
      if (own.length === 0) own.push({ where: `input[${i}]`, text: '' })
      const role = typeof item.role === 'string' ? item.role : 'user'
      own[0]!.overhead = MESSAGE_FRAMING + roleTokens(role)
      for (const block of own) blocks.push(block)
    })
  }
  const layout: PromptLayout = { blocks, extraTokens: REPLY_PRIMING, cache: 'automatic' }
  if (typeof json.prompt_cache_key === 'string') layout.cacheKey = json.prompt_cache_key
  if (typeof json.prompt_cache_retention === 'string') layout.retention = json.prompt_cache_retention
  return layout
}
