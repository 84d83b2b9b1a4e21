/**
 * Vertex AI (SPEC §21): Gemini and Claude on Vertex's paths, through `@google/genai`
 * (`vertexai: true`), `@anthropic-ai/vertex-sdk` and `@ai-sdk/google-vertex` (Gemini and its
 * Anthropic provider), unchanged. Their Google credentials are an OAuth2Client holding a fake,
 * unexpired token: the auth header is sent and accepted, not verified, and no Google host is ever
 * contacted. With the network guard routing provider hosts to the fake, a client left on its
 * default `*-aiplatform.googleapis.com` host reaches it too.
 */
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk'
import { createVertex } from '@ai-sdk/google-vertex'
import { createVertexAnthropic } from '@ai-sdk/google-vertex/anthropic'
import { ApiError, GoogleGenAI } from '@google/genai'
import { generateText, streamText } from 'ai'
import { OAuth2Client } from 'google-auth-library'
import { afterEach, describe, expect, test } from 'vitest'
import { providerError, scriptedLLM, toolCall } from '../../src/index.js'
import { installNetworkGuard } from '../../src/guard/network-guard.js'
import { isProviderHost, routeProvidersTo } from '../../src/guard/provider-hosts.js'
import type { FakeProxy } from '../../src/server/fake-proxy.js'
import { installSafetyNet, type SafetyNet } from '../guard/helpers.js'
import { startProxy } from '../proxy/helpers.js'

/** Google credentials that never leave the machine: a token already held, valid for an hour. */
function fakeGoogleAuth(): OAuth2Client {
  const client = new OAuth2Client()
  client.setCredentials({ access_token: 'ya29.fake-token', expiry_date: Date.now() + 3_600_000 })
  return client
}

const project = 'my-project'
const location = 'us-central1'

function genaiOnVertex(proxy: FakeProxy | undefined, retryAttempts?: number): GoogleGenAI {
  return new GoogleGenAI({
    vertexai: true,
    project,
    location,
    googleAuthOptions: { authClient: fakeGoogleAuth() },
    httpOptions: {
      ...(proxy ? { baseUrl: proxy.url } : {}),
      ...(retryAttempts ? { retryOptions: { attempts: retryAttempts, initialDelay: 0.001, maxDelay: 0.001 } } : {}),
    },
  })
}

function claudeOnVertex(proxy: FakeProxy, maxRetries = 0): AnthropicVertex {
  return new AnthropicVertex({ region: 'us-east5', projectId: project, baseURL: `${proxy.url}/v1`, authClient: fakeGoogleAuth(), maxRetries })
}

describe('Gemini on Vertex AI through @google/genai (vertexai: true)', () => {
  test('generateContent on the project/location/publisher path, Gemini’s answer, the bearer token sent', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hello from Vertex'], { usage: { inputTokens: 6, outputTokens: 3 } }) })
    const response = await genaiOnVertex(proxy).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { systemInstruction: 'Be brief.' } })
    expect(response.text).toBe('Hello from Vertex')
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 6, candidatesTokenCount: 3 })
    expect(proxy.requests[0]).toMatchObject({
      path: `/v1beta1/projects/${project}/locations/${location}/publishers/google/models/gemini-2.5-flash:generateContent`,
      dialect: 'gemini-generate',
      model: 'gemini-2.5-flash',
      request: { system: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
      headers: { authorization: 'Bearer ya29.fake-token' },
    })
  })

  test('streamed, with a tool call, and countTokens', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny']) })
    const genai = genaiOnVertex(proxy)
    const tools = [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } } }] }]
    const first = await genai.models.generateContent({ model: 'gemini-2.5-pro', contents: 'weather?', config: { tools } })
    expect(first.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })])
    const text: string[] = []
    for await (const chunk of await genai.models.generateContentStream({ model: 'gemini-2.5-pro', contents: 'and now?' })) text.push(chunk.text ?? '')
    expect(text.join('')).toBe('It is sunny')
    expect(proxy.requests[1].path).toMatch(/:streamGenerateContent$/)
    const counted = await genai.models.countTokens({ model: 'gemini-2.5-pro', contents: 'count me' })
    expect(counted.totalTokens).toBeGreaterThan(0)
  })

  test('provider errors are Gemini’s on Vertex too, retried by the SDK', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['after the retry']) })
    proxy.providerError('rate_limit')
    const answer = await genaiOnVertex(proxy, 2).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })
    expect(answer.text).toBe('after the retry')
    proxy.providerError('permission_denied')
    const error = await genaiOnVertex(proxy, 3).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(403)
    expect(JSON.parse((error as ApiError).message).error.status).toBe('PERMISSION_DENIED')
    expect(proxy.requests.map((request) => request.status ?? 200)).toEqual([429, 200, 403])
  })
})

describe('Claude on Vertex AI through @anthropic-ai/vertex-sdk', () => {
  test(':rawPredict answers Anthropic’s message; the model is the path’s, anthropic_version the body’s', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['Hello from Claude on Vertex']) })
    const message = await claudeOnVertex(proxy).messages.create({ model: 'claude-sonnet-4-5@20250929', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from Claude on Vertex' }])
    expect(message.id).toMatch(/^msg_/)
    expect(proxy.requests[0]).toMatchObject({
      path: `/v1/projects/${project}/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:rawPredict`,
      dialect: 'anthropic-messages',
      model: 'claude-sonnet-4-5@20250929',
      json: { anthropic_version: expect.any(String) },
      headers: { authorization: 'Bearer ya29.fake-token' },
    })
  })

  test(':streamRawPredict streams Anthropic’s events; errors are Anthropic’s (529 retried)', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([providerError('overloaded'), 'streamed back']) })
    const stream = claudeOnVertex(proxy, 1).messages.stream({ model: 'claude-haiku-4-5@20251001', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
    expect(await stream.finalText()).toBe('streamed back')
    expect(proxy.requests.map((request) => [request.status ?? 200, request.path.split(':').at(-1)])).toEqual([
      [529, 'streamRawPredict'],
      [200, 'streamRawPredict'],
    ])
  })

  test('a body without anthropic_version is a 400 in Anthropic’s shape, as Vertex answers it', async () => {
    const proxy = await startProxy()
    const answer = await fetch(`${proxy.url}/v1/projects/${project}/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5:rawPredict`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(answer.status).toBe(400)
    expect(await answer.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'anthropic_version: Field required' } })
  })
})

describe('@ai-sdk/google-vertex: Gemini and Anthropic providers', () => {
  test('createVertex and createVertexAnthropic with a base URL on the fake and the fake token', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['from Gemini', 'from Claude', 'streamed Claude']) })
    const vertex = createVertex({ project, location, baseURL: `${proxy.url}/v1/projects/${project}/locations/${location}/publishers/google`, googleAuthOptions: { authClient: fakeGoogleAuth() } })
    const gemini = await generateText({ model: vertex('gemini-2.5-flash'), prompt: 'hi', maxRetries: 0 })
    expect(gemini.text).toBe('from Gemini')
    const claude = createVertexAnthropic({ project, location: 'us-east5', baseURL: `${proxy.url}/v1/projects/${project}/locations/us-east5/publishers/anthropic/models`, googleAuthOptions: { authClient: fakeGoogleAuth() } })
    const answer = await generateText({ model: claude('claude-sonnet-4-5@20250929'), prompt: 'hi', maxRetries: 0 })
    expect(answer.text).toBe('from Claude')
    const streamed = streamText({ model: claude('claude-sonnet-4-5@20250929'), prompt: 'hi', maxRetries: 0 })
    expect(await streamed.text).toBe('streamed Claude')
    expect(proxy.requests.map((request) => `${request.dialect} ${request.path.split('/').at(-1)}`)).toEqual([
      'gemini-generate gemini-2.5-flash:generateContent',
      'anthropic-messages claude-sonnet-4-5@20250929:rawPredict',
      'anthropic-messages claude-sonnet-4-5@20250929:streamRawPredict',
    ])
    expect(proxy.requests.every((request) => request.headers.authorization === 'Bearer ya29.fake-token')).toBe(true)
  })
})

describe('a Vertex client on its default host, routed to the fake', () => {
  let net: SafetyNet | undefined
  let uninstall: (() => void) | undefined
  afterEach(async () => {
    uninstall?.()
    await net?.restore()
    uninstall = undefined
    net = undefined
  })

  test('@google/genai with no base URL reaches the fake through the guard’s route; nothing leaves the machine', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['routed']) })
    net = installSafetyNet()
    uninstall = installNetworkGuard({ route: routeProvidersTo(proxy.url) })
    const response = await genaiOnVertex(undefined).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })
    expect(response.text).toBe('routed')
    expect(proxy.requests[0].path).toBe(`/v1beta1/projects/${project}/locations/${location}/publishers/google/models/gemini-2.5-flash:generateContent`)
    expect(net.calls.every((call) => call.includes('127.0.0.1'))).toBe(true)
  })

  test('every Vertex host is a provider host, routed with its path kept: regional, global and multi-regional', () => {
    const route = routeProvidersTo('http://127.0.0.1:9')
    for (const host of ['us-central1-aiplatform.googleapis.com', 'aiplatform.googleapis.com', 'aiplatform.eu.rep.googleapis.com', 'aiplatform.us.rep.googleapis.com']) {
      expect(isProviderHost(host), host).toBe(true)
      expect(route(new URL(`https://${host}/v1/projects/p/locations/l/publishers/anthropic/models/claude:rawPredict`))).toBe('http://127.0.0.1:9/v1/projects/p/locations/l/publishers/anthropic/models/claude:rawPredict')
    }
    expect(isProviderHost('aiplatform.eu.rep.googleapis.com.evil.example')).toBe(false)
  })
})
