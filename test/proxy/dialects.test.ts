import { describe, expect, test } from 'vitest'
import type { ModelResponse } from '../../src/llm/types.js'
import { frameData, splitArguments, type EncodeContext, type ModelDialect } from '../../src/wire/dialect.js'
import { BrainEvents } from '../../src/server/brain-events.js'
import type { FakeRequest } from '../../src/server/types.js'
import { anthropicMessages } from '../../src/wire/anthropic-messages/codec.js'
import { openaiChat } from '../../src/wire/openai-chat/codec.js'
import { openaiResponses } from '../../src/wire/openai-responses/codec.js'
import { valueFor } from '../../src/server/schema-values.js'

const answer: ModelResponse = {
  content: [
    { type: 'text', text: 'Let me check.' },
    { type: 'tool-call', id: 'call_1', name: 'get_weather', args: { city: 'Paris', days: [1, 2] } },
  ],
  finishReason: 'tool-calls',
  usage: { inputTokens: 3, outputTokens: 4 },
}

function context(json: Record<string, unknown> = {}): EncodeContext {
  return { request: { model: 'm', messages: [], stream: false }, json, id: 't1', created: 1 }
}

/** Feeds a dialect's encoded answer back to it as the assistant turn of the next request. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Replay = { id: string; dialect: ModelDialect; replay: (encoded: any) => Record<string, unknown> }
const replays: Replay[] = [
  { id: openaiChat.id, dialect: openaiChat, replay: (encoded) => ({ model: 'm', messages: [encoded.choices[0].message] }) },
  { id: anthropicMessages.id, dialect: anthropicMessages, replay: (encoded) => ({ model: 'm', messages: [{ role: 'assistant', content: encoded.content }] }) },
  { id: openaiResponses.id, dialect: openaiResponses, replay: (encoded) => ({ model: 'm', input: encoded.output }) },
]

describe.each(replays)('$id round-trips through the neutral model', ({ dialect, replay }) => {
  test('an encoded answer decodes back to the same parts', () => {
    const encoded = dialect.encodeJson(answer, context())
    const decoded = dialect.decode(replay(encoded))
    expect(decoded.messages).toEqual([{ role: 'assistant', content: answer.content }])
  })

  test('a stream always ends with the finish frames, whatever the brain forgot', () => {
    const frames: string[] = []
    const record = {} as FakeRequest
    const encode = dialect.encodeStream(context({ stream_options: { include_usage: true } }), (frame) => frames.push(frameData(frame)))
    const events = new BrainEvents(encode, { model: 'm', rename: (id) => id, record })
    // The brain sends one delta and stops without a finish.
    expect(events.pass({ type: 'text-delta', text: 'hi' })).toBe(true)
    events.end()
    expect(record.response).toMatchObject({ content: [{ type: 'text', text: 'hi' }] })
    expect(events.pass({ type: 'text-delta', text: 'late' })).toBe(false)
    const last = frames.at(-1) ?? ''
    if (dialect.id === 'openai-chat') expect(last).toBe('[DONE]')
    if (dialect.id === 'anthropic-messages') expect(JSON.parse(last)).toEqual({ type: 'message_stop' })
    if (dialect.id === 'openai-responses') expect(JSON.parse(last)).toMatchObject({ type: 'response.completed', response: { output: [{ type: 'message' }] } })
  })
})

describe('helpers', () => {
  test('splitArguments always gives at least two fragments that join back', () => {
    for (const json of ['', '{}', '{"a":1}', '{"long":"' + 'x'.repeat(100) + '"}']) {
      const parts = splitArguments(json)
      expect(parts.length).toBeGreaterThanOrEqual(2)
      expect(parts.join('')).toBe(json)
    }
  })

  test('valueFor builds a small value a schema accepts', () => {
    expect(
      valueFor({
        type: 'object',
        properties: {
          s: { type: 'string' },
          n: { type: 'integer', minimum: 3 },
          e: { enum: ['a', 'b'] },
          list: { type: 'array', items: { type: 'boolean' }, minItems: 1 },
          either: { anyOf: [{ type: 'null' }, { type: 'string' }] },
        },
      }),
    ).toEqual({ s: 'string', n: 3, e: 'a', list: [false], either: 'string' })
  })
})
