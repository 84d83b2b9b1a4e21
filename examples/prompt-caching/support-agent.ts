/**
 * A support agent on the Anthropic SDK (or the OpenAI one) whose long system prompt — the
 * policy handbook — is meant to be cached across turns. `withClock: true` is the classic
 * mistake: the current time at the top of the system prompt makes every prompt differ from the
 * cached one, and every turn pays full price.
 */
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'

/** The stable part of the prompt: long enough to cache (over 1,024 tokens). */
export const HANDBOOK = Array.from({ length: 120 }, (_, i) => `Policy ${i + 1}: refunds within 30 days need the order number; be polite and brief.`).join('\n')

/** The system prompt; with the clock, it starts with the time of the call. */
export function systemPrompt(withClock: boolean): string {
  return withClock ? `Current time: ${new Date().toISOString()}\n${HANDBOOK}` : HANDBOOK
}

/** Answers each question in turn with Claude, the handbook marked cacheable. */
export async function answerWithClaude(client: Anthropic, questions: string[], options: { withClock: boolean }): Promise<string[]> {
  const answers: string[] = []
  for (const question of questions) {
    const message = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 200,
      system: [{ type: 'text', text: systemPrompt(options.withClock), cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: question }],
    })
    answers.push(message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''))
  }
  return answers
}

/** The same agent on OpenAI, whose caching is automatic (no marker needed, same mistake). */
export async function answerWithOpenAI(client: OpenAI, questions: string[], options: { withClock: boolean }): Promise<string[]> {
  const answers: string[] = []
  for (const question of questions) {
    const completion = await client.chat.completions.create({
      model: 'gpt-5',
      messages: [{ role: 'system', content: systemPrompt(options.withClock) }, { role: 'user', content: question }],
    })
    answers.push(completion.choices[0]?.message.content ?? '')
  }
  return answers
}
