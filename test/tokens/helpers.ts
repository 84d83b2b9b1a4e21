/** Shared prompts for the token and prompt-cache tests: long, fixed texts. */

/** A system prompt of about `tokens` estimated tokens (4 characters each), every sentence different. */
export function longText(tokens: number, seed = 'rule'): string {
  let text = ''
  for (let i = 0; text.length < tokens * 4; i++) text += `${seed} ${i}: answer politely and cite sources when you can. `
  return text.slice(0, tokens * 4)
}
