/** An unknown path under a provider's prefix is a 404 in that provider's error shape. */
import { expect, test } from 'vitest'
import { postJson, startProxy } from '../proxy/helpers.js'

const cases: [string, string, (body: unknown, headers: Headers) => void][] = [
  ['Gemini', '/v1beta/models/m:predictLongRunning', (body) => expect(body).toEqual({ error: { code: 404, status: 'NOT_FOUND', message: expect.stringMatching(/no route/) } })],
  ['Ollama', '/api/pull', (body) => expect(body).toEqual({ error: expect.stringMatching(/no route for POST \/api\/pull/) })],
  ['Bedrock', '/model/m/apply-guardrail', (body, headers) => {
    expect(body).toEqual({ message: expect.stringMatching(/no route/) })
    expect(headers.get('x-amzn-errortype')).toMatch(/^ResourceNotFoundException:/)
  }],
  ['Azure', '/openai/deployments/d/audio/speech', (body) => expect(body).toEqual({ error: { code: '404', message: expect.stringMatching(/no route/) } })],
]

test.each(cases)('%s', async (_name, path, check) => {
  const proxy = await startProxy()
  const answer = await postJson(`${proxy.url}${path}`, {})
  expect(answer.status).toBe(404)
  check(answer.body, answer.headers)
})
