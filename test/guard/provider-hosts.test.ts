import { expect, test } from 'vitest'
import { isProviderHost, providerHosts, routeProvidersTo } from '../../src/guard/provider-hosts.js'

test('every literal host of the list is a provider host', () => {
  for (const host of providerHosts.filter((h) => !h.includes('*'))) expect(isProviderHost(host), host).toBe(true)
})

test('the providers of SPEC §9 are all known', () => {
  for (const host of [
    'api.openai.com',
    'api.anthropic.com',
    'generativelanguage.googleapis.com',
    'europe-west4-aiplatform.googleapis.com',
    'aiplatform.googleapis.com',
    'contoso.openai.azure.com',
    'contoso.cognitiveservices.azure.com',
    'bedrock-runtime.us-east-1.amazonaws.com',
    'bedrock-runtime-fips.us-east-1.amazonaws.com',
    'api.mistral.ai',
    'api.groq.com',
    'api.deepseek.com',
    'api.x.ai',
    'openrouter.ai',
    'api.together.xyz',
    'api.fireworks.ai',
    'api.perplexity.ai',
    'api.cohere.com',
  ]) {
    expect(isProviderHost(host), host).toBe(true)
  }
})

test('wildcards stand for part of one label; case and a trailing dot do not matter', () => {
  expect(isProviderHost('contoso.openai.azure.com')).toBe(true)
  expect(isProviderHost('bedrock-runtime.eu-west-3.amazonaws.com')).toBe(true)
  expect(isProviderHost('API.OPENAI.COM.')).toBe(true)
  expect(isProviderHost('a.b.openai.azure.com')).toBe(false)
  expect(isProviderHost('openai.azure.com')).toBe(false)
  expect(isProviderHost('s3.us-east-1.amazonaws.com')).toBe(false)
  expect(isProviderHost('bedrock.us-east-1.amazonaws.com')).toBe(false)
  expect(isProviderHost('x.us-central1-aiplatform.googleapis.com')).toBe(false)
  expect(isProviderHost('storage.googleapis.com')).toBe(false)
  expect(isProviderHost('api.openai.com.evil.test')).toBe(false)
  expect(isProviderHost('xapi.openai.com')).toBe(false)
  expect(isProviderHost('127.0.0.1')).toBe(false)
})

test('routeProvidersTo keeps path and query for the providers whose layout the fake serves', () => {
  const route = routeProvidersTo('http://127.0.0.1:4010/')
  expect(route(new URL('https://api.openai.com/v1/responses?stream=true'))).toBe('http://127.0.0.1:4010/v1/responses?stream=true')
  expect(route(new URL('https://api.anthropic.com/v1/messages'))).toBe('http://127.0.0.1:4010/v1/messages')
  expect(route(new URL('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?alt=sse'))).toBe(
    'http://127.0.0.1:4010/v1beta/models/gemini-2.5-flash:generateContent?alt=sse',
  )
  expect(route(new URL('https://contoso.openai.azure.com/openai/deployments/gpt/chat/completions?api-version=2024-10-21'))).toBe(
    'http://127.0.0.1:4010/openai/deployments/gpt/chat/completions?api-version=2024-10-21',
  )
  expect(route(new URL('https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude/converse'))).toBe(
    'http://127.0.0.1:4010/model/anthropic.claude/converse',
  )
})

test('routeProvidersTo puts OpenAI-compatible vendors on the fake\'s /v1', () => {
  const route = routeProvidersTo('http://127.0.0.1:4010')
  const routed = (url: string) => route(new URL(url))
  expect(routed('https://api.mistral.ai/v1/chat/completions')).toBe('http://127.0.0.1:4010/v1/chat/completions')
  expect(routed('https://api.groq.com/openai/v1/chat/completions')).toBe('http://127.0.0.1:4010/v1/chat/completions')
  expect(routed('https://openrouter.ai/api/v1/models')).toBe('http://127.0.0.1:4010/v1/models')
  expect(routed('https://api.fireworks.ai/inference/v1/chat/completions?x=1')).toBe('http://127.0.0.1:4010/v1/chat/completions?x=1')
  expect(routed('https://api.deepseek.com/chat/completions')).toBe('http://127.0.0.1:4010/v1/chat/completions')
  expect(routed('https://api.deepseek.com/v1/chat/completions')).toBe('http://127.0.0.1:4010/v1/chat/completions')
  expect(routed('https://api.perplexity.ai/chat/completions')).toBe('http://127.0.0.1:4010/v1/chat/completions')
  expect(routed('https://api.x.ai/v1/chat/completions')).toBe('http://127.0.0.1:4010/v1/chat/completions')
  expect(routed('https://api.together.xyz/v1/chat/completions')).toBe('http://127.0.0.1:4010/v1/chat/completions')
  expect(routed('https://api.cohere.ai/compatibility/v1/chat/completions')).toBe('http://127.0.0.1:4010/v1/chat/completions')
  // The base must match whole path segments; Cohere's own API is not served by the fake.
  expect(routed('https://api.groq.com/openai/v10/chat')).toBeUndefined()
  expect(routed('https://api.cohere.com/v2/chat')).toBeUndefined()
})

test('routeProvidersTo leaves every other host alone', () => {
  const route = routeProvidersTo('http://127.0.0.1:4010')
  expect(route(new URL('https://example.com/v1/chat/completions'))).toBeUndefined()
  expect(route(new URL('http://127.0.0.1:4010/v1/models'))).toBeUndefined()
})
