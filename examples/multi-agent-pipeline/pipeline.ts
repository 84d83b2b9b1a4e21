/**
 * A small multi-agent pipeline: a researcher gathers facts, a writer drafts a briefing, a critic
 * reviews it, and the writer revises once when the critic asks. Each agent is any function
 * from a task to an Envelope — in production a real agent, in tests a MockAgent.
 */
import { Envelope } from 'agent-doubles'

export type Agent = (task: string) => Promise<Envelope>

export interface Team {
  researcher: Agent
  writer: Agent
  critic: Agent
}

/**
 * Writes a briefing on `topic`. The result is the final draft, with the usage of every other
 * call rolled up into its nested totals; a failed research step is returned as it came.
 */
export async function briefing(topic: string, team: Team): Promise<Envelope> {
  const facts = await team.researcher(`research: ${topic}`)
  if (!facts.ok) return facts

  const firstDraft = await team.writer(`write a briefing on ${topic} from: ${facts.text()}`)
  const review = await team.critic(`review: ${firstDraft.text()}`)
  if (!review.text().startsWith('revise')) return Envelope.rollUp(firstDraft, [facts, review])

  const revised = await team.writer(`revise the briefing on ${topic}: ${review.text()}`)
  return Envelope.rollUp(revised, [facts, firstDraft, review])
}
