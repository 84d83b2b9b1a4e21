// Record or replay per test: the first run records each test's transcript from `upstream` (here
// a scripted stand-in for a real model), every later run replays it — with today's date in the
// prompt masked, so the recording keeps matching. Re-record with AGENT_DOUBLES_RECORD=1.
import OpenAI from 'openai'
import { expect } from 'vitest'
import { scriptedLLM } from 'agent-doubles'
import { test as base } from 'agent-doubles/vitest'

const test = base.override({
  fakeProxyOptions: {
    transcript: { upstream: scriptedLLM({ paris: 'Take the 8:15 train to Paris.', '*': 'I do not know that city.' }) },
  },
})

async function planDay(baseURL: string, city: string): Promise<string> {
  const client = new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 })
  const completion = await client.chat.completions.create({
    model: 'gpt-5',
    messages: [
      { role: 'system', content: `You plan day trips. Today is ${new Date().toISOString().slice(0, 10)}.` },
      { role: 'user', content: `A day in ${city}?` },
    ],
  })
  return completion.choices[0].message.content ?? ''
}

test('plans a day in Paris from the recorded answer', async ({ fakeProxy }) => {
  expect(await planDay(`${fakeProxy.url}/v1`, 'Paris')).toBe('Take the 8:15 train to Paris.')
  expect(fakeProxy).toHaveReceivedRequests(1)
})
