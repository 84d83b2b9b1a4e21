// Record or replay per test under Jest: the first run records each test's transcript from
// `upstream` (here a scripted stand-in for a real model; in a project, the URL of an
// OpenAI-compatible origin such as 'https://api.openai.com'), every later run replays it — with
// today's date in the prompt masked, so the recording keeps matching. Re-record with
// AGENT_DOUBLES_RECORD=1. When a test fails, the conversation the proxy saw is printed under it.
import { describe, expect, test } from '@jest/globals'
import OpenAI from 'openai'
import { scriptedLLM } from 'agent-doubles'
import { useFakeProxy } from 'agent-doubles/jest'

const proxy = useFakeProxy({
  transcript: { upstream: scriptedLLM({ paris: 'Take the 8:15 train to Paris.', rome: 'Walk from the Pantheon to Trevi.', '*': 'I do not know that city.' }) },
})

async function planDay(city: string): Promise<string> {
  // OPENAI_BASE_URL points at the file's proxy while a test runs.
  const client = new OpenAI({ apiKey: 'test', maxRetries: 0 })
  const completion = await client.chat.completions.create({
    model: 'gpt-5',
    messages: [
      { role: 'system', content: `You plan day trips. Today is ${new Date().toISOString().slice(0, 10)}.` },
      { role: 'user', content: `A day in ${city}?` },
    ],
  })
  return completion.choices[0].message.content ?? ''
}

test('plans a day in Paris from the recorded answer', async () => {
  expect(await planDay('Paris')).toBe('Take the 8:15 train to Paris.')
  expect(proxy).toHaveReceivedRequests(1)
})

describe('Rome', () => {
  // Its transcript is __transcripts__/replay.jest.test.ts/Rome-plans-a-walk.jsonl.
  test('plans a walk', async () => {
    expect(await planDay('Rome')).toBe('Walk from the Pantheon to Trevi.')
  })
})
