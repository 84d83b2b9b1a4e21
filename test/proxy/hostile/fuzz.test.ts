/**
 * SPEC §11: ≥ 2,000 generated hostile bodies per dialect, each answered with a well-formed 4xx
 * in the dialect's own shape — never a 5xx, a hang or a crash — and the proxy still serves
 * afterwards. With `validate: false` the decoders alone must still never answer 5xx.
 */
import { describe, expect, test } from 'vitest'
import type { FakeProxy } from '../../../src/server/fake-proxy.js'
import { listLLM, openaiFor, startProxy, text } from '../helpers.js'
import { fuzzCases, isAnthropicError, isOpenAIError, sendAll, type Field, type FuzzAnswer } from './fuzz.js'

const CASES = 2_000
/** Seconds a fuzz run may take on a loaded CI machine (about two on an idle one). */
const TIMEOUT = 120_000

interface Target {
  dialect: string
  path: string
  shape: (body: unknown) => boolean
  base: Record<string, unknown>
  fields: Field[]
}

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }

const targets: Target[] = [
  {
    dialect: 'openai-chat',
    path: '/v1/chat/completions',
    shape: isOpenAIError,
    base: {
      model: 'gpt-5',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: schema } }],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
      temperature: 0.5,
      max_tokens: 100,
      stream: false,
    },
    fields: [
      [['model'], 'string'],
      [['messages'], 'list'],
      [['messages', 0, 'role'], 'enum'],
      [['messages', 1, 'content'], 'content'],
      [['messages', 2, 'tool_calls'], 'array'],
      [['messages', 2, 'tool_calls', 0, 'id'], 'string'],
      [['messages', 2, 'tool_calls', 0, 'function'], 'object'],
      [['messages', 2, 'tool_calls', 0, 'function', 'arguments'], 'string'],
      [['messages', 3, 'tool_call_id'], 'string'],
      [['tools'], 'array'],
      [['tools', 0, 'function', 'name'], 'name'],
      [['tools', 0, 'function', 'parameters'], 'object'],
      [['response_format'], 'object'],
      [['response_format', 'type'], 'enum'],
      [['response_format', 'json_schema', 'name'], 'name'],
      [['response_format', 'json_schema', 'schema'], 'object'],
      [['temperature'], 'double'],
      [['max_tokens'], 'count'],
      [['stream'], 'boolean'],
    ],
  },
  {
    dialect: 'openai-responses',
    path: '/v1/responses',
    shape: isOpenAIError,
    base: {
      model: 'gpt-5',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
      ],
      tools: [{ type: 'function', name: 'lookup', parameters: schema, strict: false }],
      text: { format: { type: 'json_schema', name: 'answer', schema } },
      temperature: 0.5,
      max_output_tokens: 100,
      stream: false,
    },
    fields: [
      [['model'], 'string'],
      [['input'], 'input'],
      [['input', 0, 'role'], 'enum'],
      [['input', 0, 'content'], 'content'],
      [['input', 1, 'call_id'], 'string'],
      [['input', 1, 'name'], 'string'],
      [['input', 1, 'arguments'], 'string'],
      [['input', 2, 'call_id'], 'enum'],
      [['tools'], 'array'],
      [['tools', 0, 'name'], 'name'],
      [['tools', 0, 'type'], 'string'],
      [['text'], 'object'],
      [['text', 'format'], 'object'],
      [['text', 'format', 'type'], 'enum'],
      [['text', 'format', 'name'], 'name'],
      [['text', 'format', 'schema'], 'object'],
      [['temperature'], 'double'],
      [['max_output_tokens'], 'count'],
      [['stream'], 'boolean'],
    ],
  },
  {
    dialect: 'anthropic-messages',
    path: '/v1/messages',
    shape: isAnthropicError,
    base: {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
      tools: [{ name: 'lookup', input_schema: schema }],
      temperature: 0.5,
      stream: false,
    },
    fields: [
      [['model'], 'string'],
      [['max_tokens'], 'count'],
      [['messages'], 'list'],
      [['messages', 0, 'role'], 'enum'],
      [['messages', 0, 'content'], 'content'],
      [['messages', 1, 'content', 0, 'id'], 'string'],
      [['messages', 1, 'content', 0, 'name'], 'string'],
      [['messages', 1, 'content', 0, 'input'], 'object'],
      [['messages', 2, 'content', 0, 'tool_use_id'], 'enum'],
      [['system'], 'content'],
      [['tools'], 'array'],
      [['tools', 0, 'name'], 'name'],
      [['tools', 0, 'input_schema'], 'object'],
      [['temperature'], 'unit'],
      [['stream'], 'boolean'],
    ],
  },
  {
    dialect: 'openai-embeddings',
    path: '/v1/embeddings',
    shape: isOpenAIError,
    base: { model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 8, encoding_format: 'float' },
    fields: [
      [['model'], 'string'],
      [['input'], 'embedInput'],
      [['dimensions'], 'count'],
    ],
  },
]

function badAnswers(answers: FuzzAnswer[], shape: (body: unknown) => boolean): FuzzAnswer[] {
  return answers.filter(
    (answer) => answer.status < 400 || answer.status >= 500 || !answer.contentType?.startsWith('application/json') || !shape(answer.body),
  )
}

async function stillServes(proxy: FakeProxy): Promise<void> {
  const completion = await openaiFor(proxy).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'still there?' }] })
  expect(completion.choices[0].message.content).toBe('ok')
}

describe.each(targets)('fuzzing $dialect', ({ path, shape, base, fields }) => {
  test(`${CASES} hostile bodies each get a well-formed 4xx in the dialect's shape`, async () => {
    const proxy = await startProxy({ llm: listLLM(text('ok')) })
    const valid = await sendAll(`${proxy.url}${path}`, [{ what: 'the base body', bytes: new TextEncoder().encode(JSON.stringify(base)) }])
    expect(valid[0].status, JSON.stringify(valid[0].body)).toBe(200)
    const answers = await sendAll(`${proxy.url}${path}`, fuzzCases(base, fields, CASES, 0x5eed + path.length))
    expect(answers).toHaveLength(CASES)
    expect(badAnswers(answers, shape).slice(0, 5)).toEqual([])
    await stillServes(proxy)
  }, TIMEOUT)

  test('with validate: false the decoders still never answer 5xx', async () => {
    const proxy = await startProxy({ llm: listLLM(text('ok')), validate: false })
    const answers = await sendAll(`${proxy.url}${path}`, fuzzCases(base, fields, 500, 0xbad + path.length))
    const failures = answers.filter((answer) => answer.status >= 500 || (answer.status >= 400 && !shape(answer.body)))
    expect(failures.slice(0, 5)).toEqual([])
    await stillServes(proxy)
  }, TIMEOUT)
})
