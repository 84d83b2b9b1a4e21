// The helpers and tables agent-doubles exports beside the doubles: what each answers.
import { expect, test } from 'vitest'
import {
  AGENT_NAME,
  chaosDecision,
  defaultChaosKinds,
  isMisbehaviour,
  isProviderError,
  isProviderErrorName,
  isRefusalCode,
  knownModels,
  misbehave,
  ProviderError,
  providerError,
  providerErrorNames,
  providerHosts,
  ProxyLane,
  refusalCodes,
} from 'agent-doubles'
import { snapshotSerializers } from 'agent-doubles/matchers'
import { test as fixtureTest } from 'agent-doubles/vitest'

test('refusal codes, agent names and provider hosts', () => {
  // The proxy protocol's refusals: status, whether clients retry, and what each means.
  expect(refusalCodes.rate_limited).toMatchObject({ status: 429, retried: true })
  expect(isRefusalCode('agent_unknown')).toBe(true)
  expect(isRefusalCode('no_such_code')).toBe(false)
  // The names an agent may take (the X-Viper-Agent header, mockAgent's name).
  expect(AGENT_NAME.test('researcher')).toBe(true)
  expect(AGENT_NAME.test('Researcher')).toBe(false)
  // The hosts the network guard refuses.
  expect(providerHosts).toContain('api.openai.com')
})

test('provider errors and misbehaviour as values', () => {
  expect(providerErrorNames).toContain('rate_limit')
  expect(isProviderErrorName('overloaded')).toBe(true)
  const error = providerError('rate_limit', { retryAfterS: 2 })
  expect(error).toBeInstanceOf(ProviderError)
  expect(isProviderError(error)).toBe(true)
  expect(error).toMatchObject({ errorName: 'rate_limit', retryAfterS: 2 })
  expect(isMisbehaviour(misbehave('empty'))).toBe(true)
  expect(isMisbehaviour('empty')).toBe(false)
})

test('chaos decisions without a proxy, and the model table', () => {
  expect(defaultChaosKinds).toContain('disconnect')
  // Pure: the same seed, test name and request number always give the same answer.
  expect(chaosDecision({ seed: 1, rate: 1, kinds: ['empty'] }, 'my test', 1)).toBe('empty')
  expect(chaosDecision({ seed: 1, rate: 0, kinds: ['empty'] }, 'my test', 1)).toBeUndefined()
  expect(knownModels['gpt-5']).toMatchObject({ contextWindow: 400_000, price: { inputPerMTok: 1.25 } })
})

test('the snapshot serializers are what the matchers entry registers', () => {
  expect(snapshotSerializers.length).toBeGreaterThan(0)
  expect(snapshotSerializers.every((serializer) => typeof serializer.test === 'function')).toBe(true)
})

fixtureTest("the fakeProxy fixture is a ProxyLane: the test's own lane of the file's FakeProxy", ({ fakeProxy }) => {
  expect(fakeProxy).toBeInstanceOf(ProxyLane)
  expect(fakeProxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/~/)
})
