import { describe, expect, test } from 'vitest'
import { KIND } from '../../src/kinds.js'
import { liveDoubles, resetAll } from '../../src/registry.js'
import { FakeProxy } from '../../src/server/fake-proxy.js'
import { listLLM, openaiFor, postJson, raw, startProxy, text } from './helpers.js'

const chat = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] }

describe('FakeProxy lifecycle', () => {
  test('close() ends a stalled stream: the client errors promptly', async () => {
    const proxy = await startProxy({ llm: listLLM(text('a long answer that never finishes')) })
    proxy.fail({ kind: 'stall', afterChunks: 2 })
    const stream = await openaiFor(proxy).chat.completions.create({ ...chat, stream: true })
    const seen: unknown[] = []
    const reading = (async () => {
      for await (const chunk of stream) seen.push(chunk)
    })().then(
      () => 'ended',
      (e: unknown) => e,
    )
    while (seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    await proxy.close()
    const timeout = new Promise((resolve) => setTimeout(() => resolve('still hanging'), 2000).unref())
    const outcome = await Promise.race([reading, timeout])
    expect(outcome).toBeInstanceOf(Error)
    expect(seen).toHaveLength(2)
  })

  test('start() after close() takes a port again and keeps the records', async () => {
    const proxy = await startProxy()
    await postJson(`${proxy.url}/v1/chat/completions`, chat)
    await proxy.close()
    expect(() => proxy.url).toThrow(/not running/)
    await proxy.start()
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    await postJson(`${proxy.url}/v1/chat/completions`, chat)
    expect(proxy.requests).toHaveLength(2)
  })

  test('start() while running throws; close() when not running is a no-op', async () => {
    const proxy = await startProxy()
    await expect(proxy.start()).rejects.toThrow(/while it is running/)
    await proxy.close()
    await expect(proxy.close()).resolves.toBeUndefined()
  })

  test('await using closes the proxy at the end of the block', async () => {
    let url: string
    {
      await using proxy = await new FakeProxy().start()
      url = proxy.url
      expect((await postJson(`${url}/v1/chat/completions`, chat)).status).toBe(200)
    }
    await expect(fetch(`${url}/v1/models`)).rejects.toThrow()
  })

  test('reset() clears records and plans, forgets definitions and keeps serving on the same port', async () => {
    const proxy = await startProxy()
    await postJson(`${proxy.url}/v1/chat/completions`, chat)
    const put = await raw(`${proxy.url}/viper/v1/agents/writer/definition`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5' }),
    })
    expect(put.status).toBe(200)
    expect(Object.keys(proxy.definitions)).toEqual(['writer'])
    proxy.refuse('rate_limited')
    await postJson(`${proxy.url}/v1/chat/completions`, chat)
    proxy.refuse('policy_denied')
    proxy.reply({ fixed: true })
    proxy.fail({ kind: 'malformed' })
    const url = proxy.url
    proxy.reset()
    expect(proxy.requests).toEqual([])
    expect(proxy.refusals).toEqual([])
    expect(proxy.definitions).toEqual({})
    expect(proxy.url).toBe(url)
    const after = await postJson(`${url}/v1/chat/completions`, chat)
    expect(after.status).toBe(200)
    expect(after.body).toMatchObject({ object: 'chat.completion' })
  })

  test('restart() forgets definitions: a stale definition CID is refused', async () => {
    const proxy = await startProxy({ agents: ['writer'] })
    const put = await raw(`${proxy.url}/viper/v1/agents/writer/definition`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5' }),
    })
    const { cid } = put.body as { cid: string }
    const headers = { 'x-viper-agent': 'writer', 'x-viper-definition': cid }
    expect((await postJson(`${proxy.url}/v1/chat/completions`, chat, headers)).status).toBe(200)
    proxy.restart()
    const stale = await postJson(`${proxy.url}/v1/chat/completions`, chat, headers)
    expect(stale.status).toBe(409)
    expect(stale.headers.get('x-viper-error')).toBe('definition_unknown')
    expect(proxy.requests[0].definitionCid).toBe(cid)
  })

  test('the local agent API is served, and unknown /viper paths get the local error shape', async () => {
    const proxy = await startProxy({ features: ['definitions', 'embeddings'] })
    const info = await raw(`${proxy.url}/viper/v1/info`)
    expect(info.body).toEqual({ api_version: 1, features: ['definitions', 'embeddings'] })
    expect(info.headers.get('x-request-id')).toMatch(/^req_/)
    const missing = await raw(`${proxy.url}/viper/v1/nothing`)
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ error: { message: expect.stringContaining('/viper/v1/nothing') } })
  })

  test('resetAll() resets a live proxy; records are copies', async () => {
    const proxy = await startProxy()
    expect(liveDoubles()).toContain(proxy)
    await postJson(`${proxy.url}/v1/chat/completions`, chat)
    const copy = proxy.requests
    copy[0].model = 'changed'
    copy.pop()
    expect(proxy.requests[0].model).toBe('m')
    resetAll()
    expect(proxy.requests).toEqual([])
  })

  test('brand and instanceof', () => {
    const proxy = new FakeProxy()
    expect(proxy[KIND]).toBe('FakeProxy')
    expect(proxy).toBeInstanceOf(FakeProxy)
    expect({ [KIND]: 'FakeProxy' }).toBeInstanceOf(FakeProxy)
    expect({}).not.toBeInstanceOf(FakeProxy)
  })
})

describe('new FakeProxy() validates its options', () => {
  test.each([
    [{ agents: 'researcher' }, /FakeProxy: option agents must be an array/],
    [{ agents: ['Bad Name'] }, /FakeProxy/],
    [{ strict: 'yes' }, /FakeProxy: option strict must be a boolean/],
    [{ features: ['embeddings', 'telepathy'] }, /FakeProxy: option features has an unknown entry "telepathy"; valid features: definitions, skills, .*embeddings/],
    [{ features: 'embeddings' }, /FakeProxy: option features must be an array of features/],
    [{ controlApi: 'yes' }, /FakeProxy: option controlApi must be a boolean/],
    [{ llm: {} }, /FakeProxy: option llm must be an LLM/],
    [{ port: 8080 }, /FakeProxy: unknown option "port"/],
    ['agents', /FakeProxy: options must be an object/],
  ])('%j throws a TypeError', (options, message) => {
    expect(() => new FakeProxy(options as never)).toThrow(TypeError)
    expect(() => new FakeProxy(options as never)).toThrow(message)
  })

  test('url before start() throws', () => {
    expect(() => new FakeProxy().url).toThrow(/\[agent-doubles\] FakeProxy: url read while it is not running/)
  })
})
