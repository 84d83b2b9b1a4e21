// SPEC §9: every test gets its own lane of the file's server, so 200 tests running at once never
// see each other's answers or records — whichever SDK, JSON or streamed.
import { AsyncLocalStorage } from 'node:async_hooks'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { describe } from 'vitest'
import { expect, test } from '../../fixtures/vitest.js'

const TESTS = 200
type Mode = 'openai-json' | 'openai-stream' | 'anthropic-json' | 'anthropic-stream'
const modes: readonly Mode[] = ['openai-json', 'openai-stream', 'anthropic-json', 'anthropic-stream']

async function ask(mode: Mode, laneUrl: string, question: string): Promise<string> {
  const messages = [{ role: 'user' as const, content: question }]
  if (mode.startsWith('openai')) {
    const client = new OpenAI({ apiKey: 'test', baseURL: `${laneUrl}/v1`, maxRetries: 0 })
    if (mode === 'openai-json') return (await client.chat.completions.create({ model: 'gpt-5', messages })).choices[0]?.message.content ?? ''
    let text = ''
    for await (const chunk of await client.chat.completions.create({ model: 'gpt-5', messages, stream: true })) text += chunk.choices[0]?.delta.content ?? ''
    return text
  }
  const client = new Anthropic({ apiKey: 'test', baseURL: laneUrl, maxRetries: 0 })
  const request = { model: 'claude-sonnet-4-6', max_tokens: 64, messages }
  const message = mode === 'anthropic-json' ? await client.messages.create(request) : await client.messages.stream(request).finalMessage()
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
}

describe.concurrent(`${TESTS} tests at once, one lane each`, () => {
  for (let index = 0; index < TESTS; index++) {
    const mode = modes[index % modes.length]!
    test(`test ${index} (${mode})`, async ({ fakeProxy, scriptedLLM, task }) => {
      fakeProxy.use(scriptedLLM([`answer ${index}`, `second answer ${index}`]))
      expect(await ask(mode, fakeProxy.url, `question ${index}`)).toBe(`answer ${index}`)
      // Let the neighbours interleave before the second turn and the checks.
      await new Promise((resolve) => setTimeout(resolve, index % 7))
      expect(await ask(mode, fakeProxy.url, `follow-up ${index}`)).toBe(`second answer ${index}`)
      expect(fakeProxy).toHaveReceivedRequests(2)
      expect(fakeProxy.requests.map((request) => request.lane)).toEqual([task.name, task.name])
      expect(fakeProxy).toHaveBeenCalledWithTask(`question ${index}`)
      expect(fakeProxy.requests.map((request) => request.request.messages.at(-1)?.content)).toEqual([
        [{ type: 'text', text: `question ${index}` }],
        [{ type: 'text', text: `follow-up ${index}` }],
      ])
    })
  }
})

describe.concurrent('clients that name no lane', () => {
  for (let index = 0; index < 12; index++) {
    test(`default-host client ${index} reaches its own test's lane`, async ({ fakeProxy, scriptedLLM }) => {
      fakeProxy.use(scriptedLLM([`own ${index}`]))
      // Built for the real API: routing finds the lane through the test's async context.
      const client = new OpenAI({ apiKey: 'test', baseURL: 'https://api.openai.com/v1', maxRetries: 0 })
      await new Promise((resolve) => setTimeout(resolve, index % 3))
      const answer = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: `q${index}` }] })
      expect(answer.choices[0]?.message.content).toBe(`own ${index}`)
      expect(fakeProxy).toHaveReceivedRequests(1)
    })

    test(`env-built client ${index} reaches its own test's lane`, async ({ fakeProxy, scriptedLLM }) => {
      fakeProxy.use(scriptedLLM([`env ${index}`]))
      // OPENAI_BASE_URL names the server's root: the test's async context picks the lane.
      const answer = await new OpenAI({ maxRetries: 0 }).chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: `e${index}` }] })
      expect(answer.choices[0]?.message.content).toBe(`env ${index}`)
      expect(fakeProxy).toHaveReceivedRequests(1)
    })
  }
})

// Made at import: calls run through it carry no test's async context, as work started by a
// shared helper or a long-lived client pool may.
const outsideAnyTest = AsyncLocalStorage.snapshot()
let arrived = 0
let releaseAll: () => void = () => {}
const allRunning = new Promise<void>((resolve) => (releaseAll = resolve))

describe.concurrent('a lane-less request whose test cannot be known', () => {
  for (let index = 0; index < 3; index++) {
    test(`gets its own answer or a 409, never a neighbour's (${index})`, async ({ fakeProxy, scriptedLLM }) => {
      fakeProxy.use(scriptedLLM([`mine ${index}`]))
      if (++arrived === 3) releaseAll()
      await allRunning
      const client = new OpenAI({ maxRetries: 0 })
      const outcome = await outsideAnyTest(() => client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: `u${index}` }] }))
        .then((answer) => answer.choices[0]?.message.content)
        .catch((error: unknown) => error)
      if (typeof outcome === 'string') {
        expect(outcome).toBe(`mine ${index}`)
        expect(fakeProxy).toHaveReceivedRequests(1)
      } else {
        expect(outcome).toBeInstanceOf(OpenAI.ConflictError)
        expect((outcome as Error).message).toMatch(/names no lane and \d+ tests are running \(".*never a neighbour's \(\d\)".*\).*build the client from fakeProxy\.url/)
        expect(fakeProxy).toHaveReceivedRequests(0)
      }
    })
  }
})

test('alone, an env-built client reaches the running test through the server root', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM(['only test', 'only test again']))
  const answer = await new OpenAI({ maxRetries: 0 }).chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
  expect(answer.choices[0]?.message.content).toBe('only test')
  const anthropic = await new Anthropic({ maxRetries: 0 }).messages.create({ model: 'claude-sonnet-4-6', max_tokens: 9, messages: [{ role: 'user', content: 'hi' }] })
  expect(anthropic.content.map((part) => (part.type === 'text' ? part.text : part.type))).toEqual(['only test again'])
  expect(fakeProxy).toHaveReceivedRequests(2)
})
