import { createOpenAI } from '@ai-sdk/openai'
import { embedMany } from 'ai'
import { describe, expect, test } from 'vitest'
import { embed } from '../../src/wire/openai-embeddings/codec.js'
import { openaiFor, postJson, startProxy } from './helpers.js'

describe('embeddings', () => {
  test('the openai client (base64 by default) decodes the same deterministic vectors', async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    const first = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['cat', 'dog'] })
    const again = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'cat' })
    expect((proxy.requests[0].json as { encoding_format?: string }).encoding_format).toBe('base64')
    expect(first.data).toHaveLength(2)
    expect(first.data[0].embedding).toHaveLength(64)
    expect(first.data[0].embedding).toEqual(embed('cat', 64))
    expect(again.data[0].embedding).toEqual(first.data[0].embedding)
    expect(first.data[1].embedding).not.toEqual(first.data[0].embedding)
    const norm = Math.hypot(...first.data[0].embedding)
    expect(norm).toBeCloseTo(1, 5)
    expect(proxy.requests[0]).toMatchObject({ dialect: 'openai-embeddings', model: 'text-embedding-3-small' })
  })

  test('float encoding and dimensions are honoured; embedMany from the AI SDK works', async () => {
    const proxy = await startProxy()
    const floats = await postJson(`${proxy.url}/v1/embeddings`, { model: 'e', input: 'cat', encoding_format: 'float', dimensions: 8 })
    expect((floats.body as { data: { embedding: number[] }[] }).data[0].embedding).toEqual(embed('cat', 8))
    const { embeddings } = await embedMany({
      model: createOpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1` }).embedding('text-embedding-3-small'),
      values: ['a', 'b'],
      maxRetries: 0,
    })
    expect(embeddings).toEqual([embed('a', 64), embed('b', 64)])
  })

  test('a bad input is a 400 in the OpenAI shape', async () => {
    const proxy = await startProxy()
    const answer = await postJson(`${proxy.url}/v1/embeddings`, { model: 'e', input: { not: 'text' } })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ error: { type: 'invalid_request_error', param: 'input' } })
  })

  test('an older proxy without the embeddings feature refuses with feature_unsupported', async () => {
    const proxy = await startProxy({ features: ['definitions'] })
    const error = await openaiFor(proxy).embeddings.create({ model: 'e', input: 'x' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 400, code: 'feature_unsupported' })
    expect(proxy.refusals[0]).toMatchObject({ code: 'feature_unsupported', status: 400, request: { dialect: 'openai-embeddings' } })
  })
})

describe('the model list', () => {
  test('models.list and models.retrieve', async () => {
    const proxy = await startProxy()
    const client = openaiFor(proxy)
    const ids: string[] = []
    for await (const model of client.models.list()) ids.push(model.id)
    expect(ids).toContain('gpt-4o-mini')
    const one = await client.models.retrieve('my-model')
    expect(one).toMatchObject({ id: 'my-model', object: 'model' })
    // Not valid percent-encoding: answered with the id as sent, not a crash.
    const odd = await fetch(`${proxy.url}/v1/models/%E0%A4%A`)
    expect(odd.status).toBe(200)
    expect(await odd.json()).toMatchObject({ id: '%E0%A4%A', object: 'model' })
  })
})
