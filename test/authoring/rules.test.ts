// Rules on a ScriptedLLM: when(match, reply, { times }) tried before the script, and rules files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Anthropic from '@anthropic-ai/sdk'
import { generateText, stepCountIs, tool } from 'ai'
import OpenAI from 'openai'
import { afterAll, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { FakeProxy, ScriptedLLM, scriptedLLM, toolCall, type ModelRequest } from '../../src/index.js'
import { serve } from '../../src/cli/serve.js'
import '../matchers/setup-expect.js'

const rulesFile = fileURLToPath(new URL('./rules/weather.json', import.meta.url))
const user = (text: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({ model: 'mock', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text }] }], ...extra })
const textOf = (response: { content: Array<{ type: string; text?: string }> }) => response.content.map((part) => part.text ?? '').join('')

describe('scriptedLLM.when', () => {
  test('a rule answers before the script, and the script cursor does not move', async () => {
    const llm = scriptedLLM(['first', 'second']).when({ lastUser: 'ping' }, 'pong')
    expect(textOf(await llm.generate(user('ping')))).toBe('pong')
    expect(textOf(await llm.generate(user('hello')))).toBe('first')
    expect(textOf(await llm.generate(user('PING again')))).toBe('pong')
    expect(textOf(await llm.generate(user('hello')))).toBe('second')
    expect(llm).toHaveConsumedAllTurns()
    expect(llm.callCount).toBe(4)
  })

  test('each field: string (substring, any case), RegExp, predicate; turn; every field must hold', async () => {
    const tools = [{ name: 'get_weather', parameters: {} }, { name: 'search', parameters: {} }]
    const llm = scriptedLLM()
      .when({ turn: 1 }, 'turn one')
      .when({ model: /^gpt-/, system: 'TERSE' }, 'terse gpt')
      .when({ toolOffered: (name) => name === 'search', lastUser: 'find' }, toolCall('search', { q: 'x' }))
      .when({ lastToolResult: /"temp":\s*2\d/ }, 'warm')
      .when((req) => req.messages.length > 3, 'long conversation')
    expect(textOf(await llm.generate(user('anything')))).toBe('turn one')
    expect(textOf(await llm.generate(user('hi', { model: 'gpt-5', system: 'Be terse.' })))).toBe('terse gpt')
    expect(textOf(await llm.generate(user('hi', { model: 'claude', system: 'Be terse.' })))).toBe('hi')
    expect((await llm.generate(user('find it', { tools }))).content[0]).toMatchObject({ type: 'tool-call', name: 'search' })
    const withResult: ModelRequest = {
      model: 'mock',
      stream: false,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'get_weather', args: {} }] },
        { role: 'tool', content: [{ type: 'tool-result', id: 'c1', result: { temp: 24 } }] },
      ],
    }
    expect(textOf(await llm.generate(withResult))).toBe('warm')
    expect(textOf(await llm.generate({ ...withResult, messages: [...withResult.messages, ...user('more').messages] }))).toBe('warm')
    expect(textOf(await llm.generate(user('short')))).toBe('short')
  })

  test('times: a rule answers that many calls, then steps aside; reset() and fork() start its count again', async () => {
    const llm = scriptedLLM({ '': 'fallback' }).when({ lastUser: 'x' }, 'ruled', { times: 2 })
    const answers = [] as string[]
    for (let i = 0; i < 3; i++) answers.push(textOf(await llm.generate(user('x'))))
    expect(answers).toEqual(['ruled', 'ruled', 'fallback'])
    llm.reset()
    expect(textOf(await llm.generate(user('x')))).toBe('ruled')
    const fork = llm.fork()
    expect(textOf(await fork.generate(user('x')))).toBe('ruled')
    expect(textOf(await fork.generate(user('x')))).toBe('ruled')
    expect(textOf(await fork.generate(user('x')))).toBe('fallback')
  })

  test("lastToolResult reads '' before any tool ran", async () => {
    const llm = scriptedLLM().when({ lastToolResult: /^$/ }, 'no tool yet')
    expect(textOf(await llm.generate(user('hi')))).toBe('no tool yet')
  })

  test('a reply function, and an Error reply failing the call', async () => {
    const llm = scriptedLLM().when({ lastUser: 'echo' }, (req) => `rule saw ${req.model}`).when({ lastUser: 'fail' }, new Error('upstream down'))
    expect(textOf(await llm.generate(user('echo', { model: 'm1' })))).toBe('rule saw m1')
    await expect(llm.generate(user('fail'))).rejects.toThrow('upstream down')
  })

  test('drives the AI SDK tool loop: a rule per step, no script at all', async () => {
    // Rules are tried in order: once the tool result is in, the first rule answers.
    const llm = scriptedLLM()
      .when({ lastToolResult: 'snow' }, 'Snow in Oslo.')
      .when({ lastUser: /weather/i }, toolCall('get_weather', { city: 'Oslo' }))
    const get_weather = tool({ description: 'weather', inputSchema: z.object({ city: z.string() }), execute: async () => 'snow' })
    const { text } = await generateText({ model: llm.languageModel(), tools: { get_weather }, stopWhen: stepCountIs(4), prompt: 'Weather in Oslo?' })
    expect(text).toBe('Snow in Oslo.')
    expect(llm).toHaveCalledToolsInOrder(['get_weather'], { mode: 'exact' })
  })

  test('bad rules are clear TypeErrors', () => {
    const llm = scriptedLLM()
    expect(() => llm.when({ user: 'x' } as never, 'y')).toThrow('[agent-doubles] ScriptedLLM.when: rule 1 match has unknown field "user"; expected one of model, system, lastUser, toolOffered, lastToolResult, turn')
    expect(() => llm.when({ lastUser: 3 } as never, 'y')).toThrow(/rule 1 match\.lastUser must be a string \(substring\), a RegExp or a predicate, got 3/)
    expect(() => llm.when({ turn: 0 }, 'y')).toThrow(/match\.turn must be a 1-based call number or a predicate, got 0/)
    expect(() => llm.when('x' as never, 'y')).toThrow(/match must be a predicate of the ModelRequest, or \{ model\?/)
    expect(() => llm.when({ lastUser: 'x' }, 42 as never)).toThrow(/rule 1 reply must be a string/)
    expect(() => llm.when({ lastUser: 'x' }, 'y', { times: 0 })).toThrow(/option times must be a positive integer, got 0/)
  })
})

describe('ScriptedLLM.fromRules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-doubles-rules-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const write = (name: string, text: string) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }

  test('a rules file behind a FakeProxy, talked to by the OpenAI and Anthropic SDKs', async () => {
    await using proxy = await new FakeProxy({ llm: await ScriptedLLM.fromRules(rulesFile) }).start()
    const openai = new OpenAI({ apiKey: 'test', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }]
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris?' }]
    const first = await openai.chat.completions.create({ model: 'gpt-5', messages, tools })
    const call = first.choices[0].message.tool_calls![0]
    expect(call).toMatchObject({ function: { name: 'get_weather', arguments: '{"city":"Paris"}' } })
    messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'sunny, 24°C' })
    const second = await openai.chat.completions.create({ model: 'gpt-5', messages, tools })
    expect(second.choices[0].message.content).toBe('It is sunny.')

    const anthropic = new Anthropic({ apiKey: 'test', baseURL: proxy.url, maxRetries: 0 })
    const hello = await anthropic.messages.create({ model: 'claude-sonnet', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] })
    expect(hello.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from a Claude rule.' })])
    const pirate = await anthropic.messages.create({ model: 'other', max_tokens: 20, system: 'Talk like a pirate.', messages: [{ role: 'user', content: 'hi' }] })
    expect(pirate.content[0]).toMatchObject({ text: 'Arr!' })

    // The first rule was used once (times: 1): a second weather question matches nothing.
    const unmatched = await openai.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'Weather in Rome?' }], tools }).catch((error: unknown) => error)
    expect(unmatched).toBeInstanceOf(OpenAI.APIError)
    expect((unmatched as InstanceType<typeof OpenAI.APIError>).status).toBe(400)
  })

  test('a call no rule answers fails, listing the rules and their uses', async () => {
    const llm = await ScriptedLLM.fromRules('[{ "match": { "lastUser": "hi" }, "reply": "hello", "times": 1 }]')
    await llm.generate(user('hi'))
    await expect(llm.generate(user('hi'))).rejects.toThrow(
      '[agent-doubles] ScriptedLLM: no rule matched call 2 (model "mock", last user text "hi"); rules:\n  1. { lastUser: "hi" } → "hello" (1 of 1 used)',
    )
    // when() adds to what the file declared.
    llm.when({ lastUser: 'hi' }, 'again')
    expect(textOf(await llm.generate(user('hi')))).toBe('again')
  })

  test('malformed files name the file and the line', async () => {
    const broken = write('broken.json', '[\n  { "match": { "lastUser": "a" }, "reply": "b" },\n  { "match": { "lastUser": "c" } "reply": "d" }\n]\n')
    await expect(ScriptedLLM.fromRules(broken)).rejects.toThrow(new RegExp(`^\\[agent-doubles\\] ScriptedLLM.fromRules: rules ${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} line 3: malformed JSON`))
    const badField = write('bad-field.json', '[\n  { "match": { "lastUser": "a" }, "reply": "b" },\n\n  {\n    "match": { "user": "c" },\n    "reply": "d"\n  }\n]')
    await expect(ScriptedLLM.fromRules(badField)).rejects.toThrow(`rules ${badField} line 4 (rule 2): rule match has unknown field "user"`)
    const badRegex = write('bad-regex.json', '[{ "match": { "lastUser": "/(unclosed/" }, "reply": "x" }]')
    await expect(ScriptedLLM.fromRules(badRegex)).rejects.toThrow(`rules ${badRegex} line 1 (rule 1): match.lastUser "/(unclosed/" is not a valid regular expression`)
    const badReply = write('bad-reply.json', '[\n{ "match": {}, "reply": 42 }]')
    await expect(ScriptedLLM.fromRules(badReply)).rejects.toThrow(`rules ${badReply} line 2 (rule 1): rule reply must be a string`)
    const noReply = write('no-reply.json', '[{ "match": {} }]')
    await expect(ScriptedLLM.fromRules(noReply)).rejects.toThrow(`rules ${noReply} line 1 (rule 1): the rule has no "reply"`)
    await expect(ScriptedLLM.fromRules(write('object.json', '{ "match": {} }'))).rejects.toThrow(/line 1: expected a JSON array of \{ match, reply, times\? \}/)
    await expect(ScriptedLLM.fromRules('[]')).rejects.toThrow('[agent-doubles] ScriptedLLM.fromRules: rules text: no rules found')
    await expect(ScriptedLLM.fromRules(join(dir, 'missing.json'))).rejects.toThrow(/cannot read rules file ".*missing\.json": ENOENT/)
    await expect(ScriptedLLM.fromRules('' as never)).rejects.toThrow(TypeError)
  })
})

test('agent-doubles serve --rules file.json', async () => {
  const lines: string[] = []
  await using proxy = (await serve(['serve', '--rules', rulesFile], (line) => lines.push(line)))!
  expect(lines).toEqual([proxy.url])
  const client = new OpenAI({ apiKey: 'k', baseURL: `${proxy.url}/v1`, maxRetries: 0 })
  const reply = await client.chat.completions.create({ model: 'm', messages: [{ role: 'system', content: 'You are a pirate.' }, { role: 'user', content: 'hi' }] })
  expect(reply.choices[0].message.content).toBe('Arr!')
  await expect(serve(['serve', '--rules', rulesFile, '--transcript', rulesFile], () => {})).rejects.toThrow('--transcript and --rules each choose the brain; give one')
})
