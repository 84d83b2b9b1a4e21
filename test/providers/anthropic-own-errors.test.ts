/**
 * SPEC §21's Anthropic leftovers, through `@anthropic-ai/sdk`: errors the fake makes itself (an
 * unknown route's 404, bad input, its own 500 when the brain throws) carry `request_id` equal to
 * the `request-id` header, as every Anthropic error does; usage carries `inference_geo`.
 */
import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, test } from 'vitest'
import { scriptedLLM } from '../../src/index.js'
import { anthropicFor, startProxy } from '../proxy/helpers.js'

const ask = { model: 'claude-sonnet-4-5', max_tokens: 32, messages: [{ role: 'user' as const, content: 'hi' }] }

describe('Anthropic errors the fake makes itself, and usage', () => {
  test('an unknown Anthropic route: 404 not_found_error with request_id = the request-id header', async () => {
    const proxy = await startProxy()
    const answer = await fetch(`${proxy.url}/v1/messages/batches/nope`, { headers: { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' } })
    expect(answer.status).toBe(404)
    const body = (await answer.json()) as { type: string; error: { type: string }; request_id: string }
    expect(body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
    expect(body.request_id).toBe(answer.headers.get('request-id'))
    expect(body.request_id).toMatch(/^req_011C/)
  })

  test('bad input and a brain that throws: the SDK’s error has the body’s request_id as its requestID', async () => {
    const proxy = await startProxy({
      llm: {
        generate: () => Promise.reject(new Error('brain broke')),
        stream: () => {
          throw new Error('brain broke')
        },
      },
    })
    const bad = (await anthropicFor(proxy).messages.create({ ...ask, max_tokens: -1 }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError)
    expect((bad.error as { request_id?: string }).request_id).toBe(bad.requestID)
    const broken = (await anthropicFor(proxy).messages.create(ask).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>
    // A failing brain is a 400 no client retries (SPEC §17), in Anthropic's shape.
    expect(broken).toBeInstanceOf(Anthropic.BadRequestError)
    expect(broken.error).toMatchObject({ type: 'error', error: { message: expect.stringContaining('brain broke') } })
    expect((broken.error as { request_id?: string }).request_id).toBe(broken.requestID)
  })

  test('a refusal, a closed lane and a malformed request on an Anthropic route carry request_id too', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['never']) })
    proxy.refuse('policy_denied', { message: 'no secrets' })
    const refused = (await anthropicFor(proxy).messages.create(ask).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>
    expect(refused).toBeInstanceOf(Anthropic.APIError)
    expect(refused.error).toMatchObject({ type: 'error', error: { message: 'no secrets' } })
    expect((refused.error as { request_id?: string }).request_id).toBe(refused.requestID)
    expect(refused.requestID).toMatch(/^req_011C/)
    // A lane's URL after the lane closed: 404 in Anthropic's shape, with a request id in both places.
    const lane = proxy.lane('gone')
    const laneUrl = lane.url
    await lane.close()
    const closed = await fetch(`${laneUrl}/v1/messages`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01', 'content-type': 'application/json' }, body: JSON.stringify(ask) })
    expect(closed.status).toBe(404)
    const closedBody = (await closed.json()) as { request_id?: string }
    expect(closedBody).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
    expect(closedBody.request_id).toBe(closed.headers.get('request-id'))
    expect(closedBody.request_id).toMatch(/^req_011C/)
  })

  test('usage carries inference_geo, in JSON and in the stream’s message_start', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one', 'two']) })
    const message = await anthropicFor(proxy).messages.create(ask)
    expect(message.usage.inference_geo).toBe('not_available')
    const stream = anthropicFor(proxy).messages.stream(ask)
    const starts: unknown[] = []
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_start') starts.push(event.message.usage.inference_geo)
    })
    await stream.finalMessage()
    expect(starts).toEqual(['not_available'])
  })
})
