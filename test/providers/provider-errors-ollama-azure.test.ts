/**
 * SPEC §10.2 and §21 on Ollama's and Azure OpenAI's wires, through their real clients: Ollama's
 * `{ "error": "…" }` (the `ollama` client's `ResponseError` with `status_code`; it never
 * retries) on chat and streamed chat; Azure's OpenAI-shaped errors with Azure's codes, headers
 * and `content_filter`'s `innererror`, through `AzureOpenAI` (with the retries it makes) and
 * `@ai-sdk/azure`; from `proxy.providerError()` and the script helper.
 */
import { createAzure } from '@ai-sdk/azure'
import { APICallError, generateText } from 'ai'
import { Ollama } from 'ollama'
import { APIError, AzureOpenAI, BadRequestError, NotFoundError, RateLimitError } from 'openai'
import { describe, expect, test } from 'vitest'
import { providerError, scriptedLLM, type ProviderErrorName } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

type Answered = Exclude<ProviderErrorName, 'timeout'>
/** What the `ollama` client throws (its `ResponseError`, not exported by the package entry). */
type ResponseError = Error & { error: string; status_code: number }
const names: Answered[] = ['rate_limit', 'insufficient_quota', 'invalid_api_key', 'permission_denied', 'model_not_found', 'context_length_exceeded', 'content_filter', 'overloaded', 'server_error']

async function caught<E>(promise: Promise<unknown>): Promise<E> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (failure: unknown) => failure as E,
  )
}

const ollamaStatus: Record<Answered, number> = {
  rate_limit: 429,
  insufficient_quota: 429,
  invalid_api_key: 401,
  permission_denied: 403,
  model_not_found: 404,
  context_length_exceeded: 400,
  content_filter: 400,
  overloaded: 503,
  server_error: 500,
}

describe('provider errors on Ollama through the ollama client', () => {
  const ollamaFor = (proxy: FakeProxy): Ollama => new Ollama({ host: proxy.url })

  test.each(names)('%s: ResponseError with Ollama’s { error } string and the status, one attempt', async (name) => {
    const proxy = await startProxy()
    proxy.providerError(name)
    const error = await caught<ResponseError>(ollamaFor(proxy).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] }))
    expect(error.name).toBe('ResponseError')
    expect(error.status_code).toBe(ollamaStatus[name])
    // The message is Ollama's bare string: an OpenAI-shaped body would read "[object Object]".
    expect(typeof error.error).toBe('string')
    expect(error.error).not.toMatch(/object Object|^Error \d+/)
    expect(proxy.requests).toHaveLength(1)
    expect(proxy.requests[0]).toMatchObject({ status: ollamaStatus[name], error: { name } })
  })

  test('a streamed chat gets the error before any line; a script’s providerError() and its message too', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([providerError('model_not_found'), providerError('overloaded', { message: 'queue full' })]) })
    const missing = await caught<ResponseError>(ollamaFor(proxy).chat({ model: 'llama9', messages: [{ role: 'user', content: 'hi' }], stream: true }))
    expect(missing.status_code).toBe(404)
    expect(missing.error).toBe("model 'llama9' not found")
    const busy = await caught<ResponseError>(ollamaFor(proxy).generate({ model: 'llama3.2', prompt: 'hi' }))
    expect(busy.status_code).toBe(503)
    expect(busy.error).toBe('queue full')
  })

  test('refusals and bad input on Ollama routes are { error } strings too', async () => {
    const proxy = await startProxy()
    proxy.refuse('rate_limited', { message: 'wait' })
    const refused = await caught<ResponseError>(ollamaFor(proxy).chat({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] }))
    expect(refused).toMatchObject({ status_code: 429, error: 'wait' })
    const bad = await caught<ResponseError>(ollamaFor(proxy).chat({ model: '', messages: [] }))
    expect(bad).toMatchObject({ status_code: 400, error: 'model is required' })
  })
})

const apiVersion = '2024-10-21'
const azureFor = (proxy: FakeProxy, maxRetries = 0): AzureOpenAI =>
  new AzureOpenAI({ endpoint: proxy.url, apiKey: 'azure-key', apiVersion, deployment: 'my-gpt', maxRetries })
const chat = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }] }

/** Azure's status and `code` for each name, and whether `openai` retries it (429, ≥ 500). */
const azureExpected: Record<Answered, { status: number; code: string | null; retried: boolean }> = {
  rate_limit: { status: 429, code: '429', retried: true },
  insufficient_quota: { status: 429, code: 'InsufficientQuota', retried: true },
  invalid_api_key: { status: 401, code: '401', retried: false },
  permission_denied: { status: 403, code: 'PermissionDenied', retried: false },
  model_not_found: { status: 404, code: 'DeploymentNotFound', retried: false },
  context_length_exceeded: { status: 400, code: 'context_length_exceeded', retried: false },
  content_filter: { status: 400, code: 'content_filter', retried: false },
  overloaded: { status: 503, code: 'ServiceUnavailable', retried: true },
  server_error: { status: 500, code: null, retried: true },
}

describe('provider errors on Azure OpenAI through AzureOpenAI and @ai-sdk/azure', () => {
  test.each(names)('%s: Azure’s status and code, and the retries AzureOpenAI makes', async (name) => {
    const want = azureExpected[name]
    const proxy = await startProxy()
    proxy.providerError(name, { times: 3 })
    const error = await caught<APIError>(azureFor(proxy, 2).chat.completions.create(chat))
    expect(error).toBeInstanceOf(APIError)
    expect(error.status).toBe(want.status)
    expect(error.code ?? null).toBe(want.code)
    expect(proxy.requests).toHaveLength(want.retried ? 3 : 1)
    expect(proxy.requests[0].error).toMatchObject({ name })
  })

  test('content_filter carries innererror with the filter results, as Azure sends it', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([providerError('content_filter')]) })
    const error = await caught<BadRequestError>(azureFor(proxy).chat.completions.create(chat))
    expect(error).toBeInstanceOf(BadRequestError)
    expect(error.param).toBe('prompt')
    expect(error.error).toMatchObject({
      code: 'content_filter',
      innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { jailbreak: { filtered: true, detected: true } } },
    })
  })

  test('rate_limit: retried after Azure’s retry-after-ms until it passes; Azure headers on the answer', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['ok']) })
    proxy.providerError('rate_limit', { times: 2 })
    const completion = await azureFor(proxy, 2).chat.completions.create(chat)
    expect(completion.choices[0].message.content).toBe('ok')
    proxy.providerError('rate_limit', { retryAfterS: 2 })
    const { error, response } = await azureFor(proxy).chat.completions.create(chat).withResponse().then(
      () => ({ error: undefined, response: undefined }),
      (failure: RateLimitError) => ({ error: failure, response: failure.headers }),
    )
    expect(error).toBeInstanceOf(RateLimitError)
    expect(response?.get('retry-after')).toBe('2')
    expect(response?.get('retry-after-ms')).toBe('2000')
    expect(response?.get('apim-request-id')).toBeTruthy()
    expect(error?.message).toMatch(/Please retry after 2 seconds/)
  })

  test('@ai-sdk/azure reads the same errors: a not-found deployment is not retried, a 503 is', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([providerError('model_not_found'), providerError('overloaded'), 'after one retry']) })
    const azure = createAzure({ apiKey: 'k', baseURL: `${proxy.url}/openai/v1` })
    const missing = await caught<APICallError>(generateText({ model: azure.chat('my-deployment'), prompt: 'hi', maxRetries: 2 }))
    expect(APICallError.isInstance(missing)).toBe(true)
    expect(missing.statusCode).toBe(404)
    expect(missing.message).toMatch(/API deployment for this resource does not exist/)
    const answer = await generateText({ model: azure.chat('my-deployment'), prompt: 'hi', maxRetries: 2 })
    expect(answer.text).toBe('after one retry')
    expect(proxy.requests.map((request) => request.status ?? 200)).toEqual([404, 503, 200])
  })

  test('a deployment that is not there: NotFoundError from the script helper too', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([providerError('model_not_found')]) })
    const error = await caught<NotFoundError>(azureFor(proxy, 2).chat.completions.create(chat))
    expect(error).toBeInstanceOf(NotFoundError)
    expect(proxy.requests).toHaveLength(1)
  })
})
