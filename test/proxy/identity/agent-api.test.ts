import { describe, expect, it } from 'vitest'
import { AgentBook } from '../../../src/gateway/agent-book.js'
import { handleAgentApi, type AgentApiContext } from '../../../src/gateway/agent-api.js'
import { allFeatures, type ProxyFeature } from '../../../src/server/types.js'

/** `'anyone'`: no agents list, so every valid name is enrolled. */
function context(agents: string[] | 'anyone' = ['researcher'], features: readonly ProxyFeature[] = allFeatures): AgentApiContext {
  return { book: new AgentBook(agents === 'anyone' ? undefined : agents), features }
}

const call = (ctx: AgentApiContext, method: string, path: string, json: unknown = null) => handleAgentApi({ method, path, json }, ctx)
const put = (ctx: AgentApiContext, agent: string, json: unknown) => call(ctx, 'PUT', `/viper/v1/agents/${agent}/definition`, json)

async function cidOf(answer: Promise<unknown>): Promise<string> {
  const result = (await answer) as { status: number; body: { cid: string } }
  expect(result.status).toBe(200)
  return result.body.cid
}

describe('GET /viper/v1/info', () => {
  it('reports the API version and features', async () => {
    expect(await call(context(), 'GET', '/viper/v1/info')).toEqual({ status: 200, body: { api_version: 1, features: [...allFeatures] } })
    expect(await call(context('anyone', ['definitions']), 'GET', '/viper/v1/info')).toMatchObject({ body: { features: ['definitions'] } })
  })

  it('answers 405 for a wrong method, and undefined for other paths', async () => {
    const answer = await call(context(), 'POST', '/viper/v1/info')
    expect(answer).toEqual({ status: 405, headers: { allow: 'GET' }, body: { error: { code: 'method_not_allowed', message: expect.any(String), hint: 'use GET' } } })
    expect(await call(context(), 'GET', '/viper/v1/nope')).toBeUndefined()
    expect(await call(context(), 'GET', '/v1/models')).toBeUndefined()
    expect(await call(context(), 'DELETE', '/viper/v1/agents/researcher/definition')).toMatchObject({ status: 405, headers: { allow: 'PUT, GET' } })
  })
})

describe('skills and instructions', () => {
  it('give stable bagaachrafake… CIDs derived from the files', async () => {
    const ctx = context()
    const a = await cidOf(call(ctx, 'POST', '/viper/v1/skills', { name: 'search', files: { 'SKILL.md': '# Search', 'b.md': 'x' } }))
    expect(a).toMatch(/^bagaachrafake[a-z2-7]{46}$/)
    // same files in another order, on another proxy: same CID
    const again = await cidOf(call(context(), 'POST', '/viper/v1/skills', { name: 'search', files: { 'b.md': 'x', 'SKILL.md': '# Search' } }))
    expect(again).toBe(a)
    const other = await cidOf(call(ctx, 'POST', '/viper/v1/skills', { name: 'search', files: { 'SKILL.md': '# Search!', 'b.md': 'x' } }))
    expect(other).not.toBe(a)
    const memory = await cidOf(call(ctx, 'POST', '/viper/v1/instructions', { files: { 'AGENTS.md': 'Cite sources.' } }))
    expect(memory).toMatch(/^bagaachrafake/)
    expect(ctx.book.files(a)?.names).toEqual(new Set(['search']))
  })

  it('answer a malformed body with 400 in the local shape, unmarked', async () => {
    const ctx = context()
    expect(await call(ctx, 'POST', '/viper/v1/skills', { files: { a: 'b' } })).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } })
    expect(await call(ctx, 'POST', '/viper/v1/instructions', { files: {} })).toMatchObject({ status: 400 })
    expect(await call(ctx, 'POST', '/viper/v1/instructions', { files: { a: 1 } })).toMatchObject({ status: 400 })
    const unmarked = await call(ctx, 'POST', '/viper/v1/instructions', null)
    expect(unmarked?.status).toBe(400)
    expect(unmarked?.headers?.['x-viper-error']).toBeUndefined()
  })

  it('are refused with feature_unsupported when the feature is left out', async () => {
    const ctx = context('anyone', ['definitions'])
    const answer = await call(ctx, 'POST', '/viper/v1/skills', { name: 's', files: { a: 'b' } })
    expect(answer).toMatchObject({ status: 400, headers: { 'x-viper-error': 'feature_unsupported' }, body: { error: { code: 'feature_unsupported' } } })
    expect(await call(ctx, 'POST', '/viper/v1/instructions', { files: { a: 'b' } })).toMatchObject({ headers: { 'x-viper-error': 'feature_unsupported' } })
  })
})

describe('PUT/GET /viper/v1/agents/{agent}/definition', () => {
  it('stores the definition normalised and gives a stable fake-… CID', async () => {
    const ctx = context()
    const long = 'You are thorough. '.repeat(2000)
    const cid = await cidOf(put(ctx, 'researcher', { model: 'gpt-5', instructions: long, skills: [], tools: ['search', { name: 'fetch', description: '' }], subagents: null, memory: '' }))
    expect(cid).toMatch(/^fake-[0-9a-f]{32}$/)
    const stored = {
      model: 'gpt-5',
      instructions: long,
      tools: [
        { name: 'search', parameters: { type: 'object', properties: {} } },
        { name: 'fetch', parameters: { type: 'object', properties: {} } },
      ],
    }
    expect(ctx.book.definitions()).toEqual({ researcher: stored })
    expect(ctx.book.latestCid('researcher')).toBe(cid)
    expect(await call(ctx, 'GET', '/viper/v1/agents/researcher/definition')).toEqual({ status: 200, headers: { 'x-viper-definition': cid }, body: stored })
    // the same definition, written differently, has the same CID; another has another
    expect(await cidOf(put(context(), 'researcher', { tools: [{ name: 'search' }, 'fetch'], instructions: long, model: 'gpt-5' }))).toBe(cid)
    expect(await cidOf(put(ctx, 'researcher', { model: 'gpt-5-mini' }))).not.toBe(cid)
  })

  it('definitions() are deep copies', async () => {
    const ctx = context()
    await put(ctx, 'researcher', { model: 'gpt-5', tools: ['search'] })
    const copy = ctx.book.definitions()
    ;(copy.researcher.tools as { name: string }[])[0].name = 'changed'
    expect((ctx.book.definitions().researcher.tools as { name: string }[])[0].name).toBe('search')
  })

  it('accepts skills and memory the proxy holds, and refuses others with files_unknown', async () => {
    const ctx = context()
    const skill = await cidOf(call(ctx, 'POST', '/viper/v1/skills', { name: 'search', files: { 'SKILL.md': '#' } }))
    const memory = await cidOf(call(ctx, 'POST', '/viper/v1/instructions', { files: { 'AGENTS.md': 'x' } }))
    await cidOf(put(ctx, 'researcher', { model: 'm', skills: [skill], memory }))
    expect(ctx.book.definitions().researcher).toEqual({ model: 'm', skills: [skill], memory })
    const refused = await put(ctx, 'researcher', { model: 'm', skills: [skill, 'bagaachrafakemissing'], memory: 'bagaachrafakegone' })
    expect(refused).toMatchObject({
      status: 422,
      headers: { 'x-viper-error': 'files_unknown', 'x-should-retry': 'false' },
      body: { error: { code: 'files_unknown', message: expect.stringMatching(/skill bagaachrafakemissing, memory bagaachrafakegone/) } },
    })
    // a skill's CID is not memory
    expect(await put(ctx, 'researcher', { model: 'm', memory: skill })).toMatchObject({ headers: { 'x-viper-error': 'files_unknown' } })
  })

  it.each([
    ['no model', { instructions: 'x' }],
    ['empty model', { model: ' ' }],
    ['model not a string', { model: 5 }],
    ['instructions not text', { model: 'm', instructions: ['x'] }],
    ['skills not a list', { model: 'm', skills: 'cid' }],
    ['memory not a string', { model: 'm', memory: 1 }],
    ['tools not a list', { model: 'm', tools: {} }],
    ['a tool without a name', { model: 'm', tools: [{ description: 'x' }] }],
    ['bad subagent name', { model: 'm', subagents: ['Critic'] }],
    ['not an object', ['m']],
  ])('refuses %s with definition_invalid', async (_, body) => {
    const ctx = context()
    expect(await put(ctx, 'researcher', body)).toMatchObject({ status: 422, headers: { 'x-viper-error': 'definition_invalid' }, body: { error: { code: 'definition_invalid' } } })
    expect(ctx.book.definitions()).toEqual({})
  })

  it('refuses unknown and malformed agents', async () => {
    const ctx = context()
    expect(await put(ctx, 'stranger', { model: 'm' })).toMatchObject({ status: 403, headers: { 'x-viper-error': 'agent_unknown' } })
    expect(await put(ctx, 'Bad%20Name', { model: 'm' })).toMatchObject({ status: 400, headers: { 'x-viper-error': 'invalid_agent_name' } })
    expect(await put(ctx, 'a%2Fb', { model: 'm' })).toMatchObject({ headers: { 'x-viper-error': 'invalid_agent_name' } })
    expect(await put(ctx, '%E0%A4%A', { model: 'm' })).toMatchObject({ headers: { 'x-viper-error': 'invalid_agent_name' } })
    expect(await put(context('anyone'), 'anyone', { model: 'm' })).toMatchObject({ status: 200 })
  })

  it('GET answers definition_unknown before any registration and after restart', async () => {
    const ctx = context()
    expect(await call(ctx, 'GET', '/viper/v1/agents/researcher/definition')).toMatchObject({ status: 409, headers: { 'x-viper-error': 'definition_unknown' } })
    await put(ctx, 'researcher', { model: 'm' })
    ctx.book.restart()
    expect(await call(ctx, 'GET', '/viper/v1/agents/researcher/definition')).toMatchObject({ status: 409 })
    expect(ctx.book.definitions()).toEqual({})
  })

  it('is refused with feature_unsupported when a feature it needs is left out', async () => {
    expect(await put(context('anyone', []), 'a', { model: 'm' })).toMatchObject({ status: 400, headers: { 'x-viper-error': 'feature_unsupported' } })
    expect(await call(context('anyone', []), 'GET', '/viper/v1/agents/a/definition')).toMatchObject({ headers: { 'x-viper-error': 'feature_unsupported' } })
    expect(await put(context('anyone', ['definitions']), 'a', { model: 'm', subagents: ['critic'] })).toMatchObject({
      body: { error: { code: 'feature_unsupported', message: expect.stringContaining('"subagents"') } },
    })
    expect(await put(context('anyone', ['definitions']), 'a', { model: 'm', skills: ['x'] })).toMatchObject({
      body: { error: { code: 'feature_unsupported', message: expect.stringContaining('"skills"') } },
    })
  })

  it('restart() and reset() forget definitions but keep the content-addressed files', async () => {
    const ctx = context()
    const skill = await cidOf(call(ctx, 'POST', '/viper/v1/skills', { name: 's', files: { a: 'b' } }))
    await put(ctx, 'researcher', { model: 'm', skills: [skill] })
    for (const forget of [() => ctx.book.restart(), () => ctx.book.reset()]) {
      forget()
      expect(ctx.book.definitions()).toEqual({})
      expect(ctx.book.latestCid('researcher')).toBeUndefined()
      expect(ctx.book.hasFiles(skill, 'skill')).toBe(true)
      // A client re-registering after the restart gets through: its skills are still held.
      expect(await put(ctx, 'researcher', { model: 'm', skills: [skill] })).toMatchObject({ status: 200 })
    }
  })
})
