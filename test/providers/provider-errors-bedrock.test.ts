/**
 * SPEC §10.2 and §21 on Bedrock's wire, through `@aws-sdk/client-bedrock-runtime`: every provider
 * error name as AWS sends it (`x-amzn-errortype` and `{ message }` with AWS's status), so the SDK
 * throws the named exception class and its standard retry strategy retries throttling and 5xx and
 * nothing else — on Converse, ConverseStream, InvokeModel and InvokeModelWithResponseStream, planned
 * with `proxy.providerError()` or given by a script. The retry delay is shortened (a
 * ConfiguredRetryStrategy keeps the SDK's own decision of what to retry), never the decision.
 */
import {
  AccessDeniedException,
  BedrockRuntimeClient,
  BedrockRuntimeServiceException,
  ConverseCommand,
  ConverseStreamCommand,
  InternalServerException,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  ResourceNotFoundException,
  ServiceQuotaExceededException,
  ServiceUnavailableException,
  ThrottlingException,
  ValidationException,
} from '@aws-sdk/client-bedrock-runtime'
import { ConfiguredRetryStrategy } from '@smithy/core/retry'
import { describe, expect, onTestFinished, test } from 'vitest'
import { ProviderError, providerError, scriptedLLM, type LLM, type ProviderErrorName } from '../../src/index.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { startProxy } from '../proxy/helpers.js'

function bedrockFor(proxy: FakeProxy, maxAttempts = 3): BedrockRuntimeClient {
  const client = new BedrockRuntimeClient({
    endpoint: proxy.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    retryStrategy: new ConfiguredRetryStrategy(maxAttempts, () => 1),
  })
  onTestFinished(() => client.destroy())
  return client
}

type Answered = Exclude<ProviderErrorName, 'timeout'>

/** The class the SDK throws for each name, AWS's status, and whether the standard strategy retries it. */
const expected: Record<Answered, { type: string; status: number; retried: boolean; class: abstract new (...args: never[]) => BedrockRuntimeServiceException }> = {
  rate_limit: { type: 'ThrottlingException', status: 429, retried: true, class: ThrottlingException },
  insufficient_quota: { type: 'ServiceQuotaExceededException', status: 400, retried: false, class: ServiceQuotaExceededException },
  invalid_api_key: { type: 'UnrecognizedClientException', status: 403, retried: false, class: BedrockRuntimeServiceException },
  permission_denied: { type: 'AccessDeniedException', status: 403, retried: false, class: AccessDeniedException },
  model_not_found: { type: 'ResourceNotFoundException', status: 404, retried: false, class: ResourceNotFoundException },
  context_length_exceeded: { type: 'ValidationException', status: 400, retried: false, class: ValidationException },
  content_filter: { type: 'ValidationException', status: 400, retried: false, class: ValidationException },
  overloaded: { type: 'ServiceUnavailableException', status: 503, retried: true, class: ServiceUnavailableException },
  server_error: { type: 'InternalServerException', status: 500, retried: true, class: InternalServerException },
}

const modelId = 'amazon.nova-lite-v1:0'
const converse = { modelId, messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }] }

async function caught(promise: Promise<unknown>): Promise<BedrockRuntimeServiceException> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  )
  if (!(error instanceof BedrockRuntimeServiceException)) throw new Error(`expected a Bedrock exception, got ${String(error)}`)
  return error
}

describe('provider errors on Bedrock through @aws-sdk/client-bedrock-runtime', () => {
  test.each(Object.keys(expected) as Answered[])('%s: the named exception, AWS’s status, and the SDK’s retries', async (name) => {
    const want = expected[name]
    const proxy = await startProxy()
    proxy.providerError(name, { times: 3 })
    const error = await caught(bedrockFor(proxy).send(new ConverseCommand(converse)))
    expect(error).toBeInstanceOf(want.class)
    expect(error.name).toBe(want.type)
    expect(error.$metadata.httpStatusCode).toBe(want.status)
    expect(error.$metadata.attempts).toBe(want.retried ? 3 : 1)
    expect(error.message).not.toBe('UnknownError')
    expect(proxy.requests).toHaveLength(want.retried ? 3 : 1)
    expect(proxy.requests[0]).toMatchObject({ status: want.status, error: { name, type: want.type } })
  })

  test('rate_limit is retried until it passes; the answer says ThrottlingException in x-amzn-errortype with { message }', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['through']) })
    proxy.providerError('rate_limit', { times: 2 })
    const answer = await bedrockFor(proxy).send(new ConverseCommand(converse))
    expect(answer.output?.message?.content).toEqual([{ text: 'through' }])
    expect(answer.$metadata.attempts).toBe(3)
    proxy.providerError('rate_limit', { message: 'slow down' })
    const raw = await fetch(`${proxy.url}/model/${encodeURIComponent(modelId)}/converse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: converse.messages }) })
    expect(raw.status).toBe(429)
    expect(raw.headers.get('x-amzn-errortype')).toBe('ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/')
    expect(await raw.json()).toEqual({ message: 'slow down' })
  })

  test('ConverseStream: the error comes before the stream, as the named class, retried the same way', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['streamed']) })
    proxy.providerError('overloaded', { times: 1 })
    const answer = await bedrockFor(proxy).send(new ConverseStreamCommand(converse))
    const text: string[] = []
    for await (const event of answer.stream ?? []) if (event.contentBlockDelta?.delta?.text) text.push(event.contentBlockDelta.delta.text)
    expect(text.join('')).toBe('streamed')
    expect(answer.$metadata.attempts).toBe(2)
    proxy.providerError('permission_denied', { times: 3 })
    const denied = await caught(bedrockFor(proxy).send(new ConverseStreamCommand(converse)))
    expect(denied).toBeInstanceOf(AccessDeniedException)
    expect(denied.$metadata.attempts).toBe(1)
  })

  test('InvokeModel and InvokeModelWithResponseStream (Anthropic on Bedrock) answer in Bedrock’s shape, from a script too', async () => {
    const claude = 'anthropic.claude-3-5-haiku-20241022-v1:0'
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
    const proxy = await startProxy({ llm: scriptedLLM([providerError('context_length_exceeded'), providerError('rate_limit'), providerError('rate_limit'), providerError('rate_limit')]) })
    const long = await caught(bedrockFor(proxy).send(new InvokeModelCommand({ modelId: claude, body, contentType: 'application/json' })))
    expect(long).toBeInstanceOf(ValidationException)
    expect(long.message).toBe('Input is too long for requested model.')
    const throttled = await caught(bedrockFor(proxy).send(new InvokeModelWithResponseStreamCommand({ modelId: claude, body, contentType: 'application/json' })))
    expect(throttled).toBeInstanceOf(ThrottlingException)
    expect(throttled.$metadata.attempts).toBe(3)
    expect(proxy.requests.map((request) => request.status)).toEqual([400, 429, 429, 429])
  })

  /** A brain that streams a word, then throws provider error `name`. */
  function failingMidStream(name: Answered): LLM {
    return {
      generate: () => Promise.reject(new Error('unused')),
      async *stream() {
        yield { type: 'text-delta' as const, text: 'partial' }
        throw new ProviderError(name)
      },
    }
  }

  /** The stream exception the SDK throws for each name once a stream has started (the members the streams carry). */
  const midStream: Record<Answered, abstract new (...args: never[]) => BedrockRuntimeServiceException> = {
    rate_limit: ThrottlingException,
    insufficient_quota: ThrottlingException,
    invalid_api_key: ValidationException,
    permission_denied: ValidationException,
    model_not_found: ValidationException,
    context_length_exceeded: ValidationException,
    content_filter: ValidationException,
    overloaded: ServiceUnavailableException,
    server_error: InternalServerException,
  }

  test.each(Object.keys(midStream) as Answered[])('%s after ConverseStream started: the SDK throws its exception class while reading', async (name) => {
    const proxy = await startProxy({ llm: failingMidStream(name) })
    const answer = await bedrockFor(proxy).send(new ConverseStreamCommand(converse))
    const text: string[] = []
    const error = await (async () => {
      for await (const event of answer.stream ?? []) if (event.contentBlockDelta?.delta?.text) text.push(event.contentBlockDelta.delta.text)
    })().then(
      () => undefined,
      (failure: unknown) => failure,
    )
    expect(text.join('')).toBe('partial')
    expect(error).toBeInstanceOf(midStream[name])
    expect((error as Error).name).toBe(midStream[name].name)
  })

  test('InvokeModelWithResponseStream: a throttling error mid-stream is a ThrottlingException, overloaded a ServiceUnavailableException', async () => {
    const claude = 'anthropic.claude-3-5-haiku-20241022-v1:0'
    const body = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
    for (const name of ['rate_limit', 'overloaded'] as const) {
      const proxy = await startProxy({ llm: failingMidStream(name) })
      const answer = await bedrockFor(proxy).send(new InvokeModelWithResponseStreamCommand({ modelId: claude, body, contentType: 'application/json' }))
      let chunks = 0
      const error = await (async () => {
        for await (const event of answer.body ?? []) if (event.chunk) chunks++
      })().then(
        () => undefined,
        (failure: unknown) => failure,
      )
      expect(chunks).toBeGreaterThan(0)
      expect(error).toBeInstanceOf(midStream[name])
    }
  })
})
