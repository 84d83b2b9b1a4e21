import { expect, test } from 'vitest'
import { isProviderHost, providerHosts, routableProviderHosts, routeProvidersTo } from '../../src/guard/provider-hosts.js'

test('every literal host of the list is a provider host', () => {
  for (const host of providerHosts.filter((h) => !h.includes('*'))) expect(isProviderHost(host), host).toBe(true)
  expect(routableProviderHosts.every((host) => (providerHosts as readonly string[]).includes(host))).toBe(true)
})

test('wildcards stand for one label; case and a trailing dot do not matter', () => {
  expect(isProviderHost('contoso.openai.azure.com')).toBe(true)
  expect(isProviderHost('bedrock-runtime.eu-west-3.amazonaws.com')).toBe(true)
  expect(isProviderHost('API.OPENAI.COM.')).toBe(true)
  expect(isProviderHost('a.b.openai.azure.com')).toBe(false)
  expect(isProviderHost('openai.azure.com')).toBe(false)
  expect(isProviderHost('s3.us-east-1.amazonaws.com')).toBe(false)
  expect(isProviderHost('api.openai.com.evil.test')).toBe(false)
  expect(isProviderHost('xapi.openai.com')).toBe(false)
  expect(isProviderHost('127.0.0.1')).toBe(false)
})

test('routeProvidersTo keeps path and query, and routes only OpenAI and Anthropic', () => {
  const route = routeProvidersTo('http://127.0.0.1:4010/')
  expect(route(new URL('https://api.openai.com/v1/responses?stream=true'))).toBe('http://127.0.0.1:4010/v1/responses?stream=true')
  expect(route(new URL('https://api.anthropic.com/v1/messages'))).toBe('http://127.0.0.1:4010/v1/messages')
  expect(route(new URL('https://api.mistral.ai/v1/chat/completions'))).toBeUndefined()
})
