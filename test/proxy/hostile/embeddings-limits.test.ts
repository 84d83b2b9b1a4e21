/**
 * Embeddings follow OpenAI's limits with OpenAI's errors (SPEC §11), and a large answer is
 * built a slice at a time, so other requests are served while it is made.
 */
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { EMBEDDING_LIMITS } from '../../../src/wire/openai-embeddings/codec.js'
import { openaiFor, startProxy } from '../helpers.js'

type Params = OpenAI.EmbeddingCreateParams

const limits: { what: string; params: Params; error: Record<string, unknown> }[] = [
  {
    what: 'more than 2048 inputs',
    params: { model: 'text-embedding-3-small', input: Array.from({ length: 2049 }, () => 'x') },
    error: { param: 'input', code: 'array_above_max_length', message: expect.stringContaining('maximum length 2048, but got an array with length 2049') },
  },
  {
    what: 'an input over 8192 tokens',
    params: { model: 'text-embedding-3-small', input: 'abcd'.repeat(8193) },
    error: { param: null, code: null, message: expect.stringMatching(/^This model's maximum context length is 8192 tokens, however you requested 8193 tokens/) },
  },
  {
    what: 'more than 300,000 tokens in all',
    params: { model: 'text-embedding-3-small', input: Array.from({ length: 40 }, () => 'abcd'.repeat(8000)) },
    error: { type: 'max_tokens_per_request', code: 'max_tokens_per_request', param: null, message: 'Requested 320000 tokens, max 300000 tokens per request' },
  },
  {
    what: 'dimensions above the model’s size',
    params: { model: 'text-embedding-3-small', input: 'x', dimensions: 1537 },
    error: { param: 'dimensions', code: 'integer_above_max_value', message: "Invalid 'dimensions': integer above maximum value. Expected a value <= 1536, but got 1537 instead." },
  },
  {
    what: 'dimensions for a model without them',
    params: { model: 'text-embedding-ada-002', input: 'x', dimensions: 8 },
    error: { message: 'This model does not support specifying dimensions.' },
  },
  {
    what: 'an empty string',
    params: { model: 'text-embedding-3-small', input: '' },
    error: { message: expect.stringContaining("'$.input' is invalid") },
  },
  {
    what: 'a token array holding an object',
    params: { model: 'text-embedding-3-small', input: [[1, { toString: 1 }]] as never },
    error: { param: 'input', type: 'invalid_request_error' },
  },
]

describe('embeddings limits through the openai client', () => {
  test.each(limits)('$what → 400', async ({ params, error }) => {
    const proxy = await startProxy()
    const caught = await openaiFor(proxy).embeddings.create(params).catch((e: unknown) => e)
    expect(caught).toBeInstanceOf(OpenAI.BadRequestError)
    expect((caught as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ type: 'invalid_request_error', ...error })
  })

  test('the largest request within the limits is answered in full', async () => {
    const proxy = await startProxy()
    const input = Array.from({ length: EMBEDDING_LIMITS.inputs }, (_, i) => `text ${i}`)
    const answer = await openaiFor(proxy).embeddings.create({ model: 'text-embedding-3-large', input, dimensions: 256 })
    expect(answer.data).toHaveLength(2048)
    expect(answer.data[2047]).toMatchObject({ index: 2047, embedding: expect.any(Array) })
    expect(answer.data[2047].embedding).toHaveLength(256)
  })
})

describe('a large embeddings answer does not hold the event loop', () => {
  test('a chat request sent while a large answer is being built is answered first', async () => {
    const proxy = await startProxy()
    const input = Array.from({ length: 1024 }, (_, i) => `text ${i}`)
    const big = await fetch(`${proxy.url}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-large', input, dimensions: 3072, encoding_format: 'base64' }),
    })
    expect(big.status).toBe(200)
    const order: string[] = []
    const reading = big.text().then((body) => {
      order.push('embeddings')
      return body
    })
    const chat = openaiFor(proxy)
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'quick?' }] })
      .then(() => order.push('chat'))
    const [body] = await Promise.all([reading, chat])
    expect(order).toEqual(['chat', 'embeddings'])
    expect(JSON.parse(body).data).toHaveLength(1024)
  })
})
