/**
 * One test per finding of issue 8 that SPEC §11 gives this module: deep nesting, malformed
 * fields, the fake's own crashes, embeddings that blocked the event loop, and remembered
 * conversations bounded by bytes. Requests that once took the process down run in a child.
 */
import Anthropic from '@anthropic-ai/sdk'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { LLM } from '../../../src/llm/types.js'
import { ResponseMemory } from '../../../src/wire/response-memory.js'
import { anthropicFor, openaiFor, startProxy, text } from '../helpers.js'

function runChild(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url))], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('issue 8 findings, in a child process', () => {
  test('10,000-level nesting, an object as a tool_use id and huge embeddings are 400s, and the proxy still serves', async () => {
    const { code, stdout, stderr } = await runChild('./child-findings.ts')
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const results = JSON.parse(stdout)
    expect(results.nestedChat).toEqual({ status: 400, body: { error: expect.objectContaining({ message: expect.stringContaining('deeper than 512 levels'), type: 'invalid_request_error' }) } })
    expect(results.nestedAnthropic).toEqual({ status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('deeper than 512 levels') }, request_id: expect.stringMatching(/^req_/) } })
    expect(results.objectIdAnthropic).toMatchObject({ status: 400, body: { type: 'error', error: { message: 'messages.1.content.0.id: Input should be a valid string' } } })
    expect(results.embeddings8192).toMatchObject({ status: 400, body: { error: { param: 'dimensions', code: 'integer_above_max_value' } } })
    expect(results.embeddings30MB).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/^This model's maximum context length is 8192 tokens/) } } })
    expect(results.stillServes.status).toBe(200)
  }, 120_000)
})

describe('a bug of the fake itself', () => {
  const broken: LLM = {
    generate: async () => text('never'),
    async *stream() {},
    session: () => {
      throw new Error('session() broke')
    },
  }

  test('is a 500 in the Anthropic shape on the Anthropic route, with x-should-retry: false, so the SDK does not resend it', async () => {
    const proxy = await startProxy({ llm: broken })
    const error = await anthropicFor(proxy, { maxRetries: 3 })
      .messages.create({ model: 'c', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Anthropic.InternalServerError)
    const apiError = error as InstanceType<typeof Anthropic.APIError>
    expect(apiError.headers?.get('x-should-retry')).toBe('false')
    // Anthropic errors the fake makes itself carry a request_id, as the API's do (SPEC §21).
    expect(apiError.error).toEqual({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('session() broke') }, request_id: expect.stringMatching(/^req_/) })
    expect(proxy.requests).toHaveLength(1)
  })

  test('is a 500 in the OpenAI shape on an OpenAI route', async () => {
    const proxy = await startProxy({ llm: broken })
    const error = await openaiFor(proxy, { maxRetries: 2 })
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 500, type: 'server_error', message: expect.stringContaining('a bug of agent-doubles') })
    expect(proxy.requests).toHaveLength(1)
  })
})

describe('remembered conversations are bounded by bytes, not by count', () => {
  test('1,000 conversations of 100 KB keep at most the budget, dropping the least recently used', () => {
    const memory = new ResponseMemory(8 * 1024 * 1024)
    const big = 'x'.repeat(100_000)
    for (let n = 0; n < 1000; n++) {
      memory.set(`resp_${n}`, [{ role: 'user', content: [{ type: 'text', text: big }] }])
      if (n === 900) expect(memory.get('resp_0')).toBeUndefined()
      // Reading one keeps it.
      memory.get('resp_950')
    }
    expect(memory.bytes).toBeLessThanOrEqual(8 * 1024 * 1024)
    expect(memory.size).toBeLessThan(100)
    expect(memory.get('resp_999')).toBeDefined()
    expect(memory.get('resp_950')).toBeDefined()
    expect(memory.get('resp_900')).toBeUndefined()
    memory.clear()
    expect([memory.size, memory.bytes]).toEqual([0, 0])
  })

  test('an entry larger than the whole budget is not kept', () => {
    const memory = new ResponseMemory(1000)
    memory.set('resp_big', [{ role: 'user', content: [{ type: 'text', text: 'x'.repeat(2000) }] }])
    expect(memory.get('resp_big')).toBeUndefined()
    expect(memory.bytes).toBe(0)
  })
})
