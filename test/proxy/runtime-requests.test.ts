// SPEC §17 with real clients: what the agent runtimes of test/runtimes send and need, checked
// here in seconds (env, lane header, turned-away records, Claude Code's system message and
// count_tokens, Codex's additional_tools and custom tools, Gemini's signatures and routing call,
// side requests, a failing brain's 400).
import Anthropic from '@anthropic-ai/sdk'
import { GoogleGenAI } from '@google/genai'
import OpenAI from 'openai'
import { describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import '../../fixtures/vitest.js'
import { customToolCall, scriptedLLM, toolCall } from '../../src/index.js'
import { postJson, startProxy } from './helpers.js'

const CLAUDE_BETAS = 'claude-code-20250219,per-turn-control-2026-07-01,mid-conversation-tool-changes-2026-07-01'

describe('fakeProxy.env', () => {
  test('points every client at the lane, with placeholder keys', async () => {
    const proxy = await startProxy()
    const lane = proxy.lane('env')
    lane.use(scriptedLLM(['from the lane']))
    const env = lane.env
    expect(env).toMatchObject({
      OPENAI_BASE_URL: `${lane.url}/v1`,
      ANTHROPIC_BASE_URL: lane.url,
      GOOGLE_GEMINI_BASE_URL: lane.url,
      OLLAMA_HOST: lane.url,
      AZURE_OPENAI_ENDPOINT: lane.url,
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: lane.url,
      OPENAI_API_KEY: expect.any(String),
      ANTHROPIC_API_KEY: expect.any(String),
      GEMINI_API_KEY: expect.any(String),
      AWS_REGION: 'us-east-1',
    })
    const client = new OpenAI({ baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, maxRetries: 0 })
    const answer = await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] })
    expect(answer.choices[0]?.message.content).toBe('from the lane')
    expect(proxy.env.OPENAI_BASE_URL).toBe(`${proxy.url}/v1`)
  })
})

describe('lanes by header, and requests turned away', () => {
  test('x-agent-doubles-lane names a lane by name or id; an unknown one is the 404 of §9', async () => {
    const proxy = await startProxy()
    const lane = proxy.lane('checkout')
    lane.use(scriptedLLM(['by name', 'by id']))
    const byName = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-agent-doubles-lane': 'checkout' } })
    expect((await byName.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'a' }] })).choices[0]?.message.content).toBe('by name')
    const byId = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-agent-doubles-lane': `~${lane.id}` } })
    expect((await byId.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'b' }] })).choices[0]?.message.content).toBe('by id')
    expect(lane.requests.map((request) => request.lane)).toEqual(['checkout', 'checkout'])
    const unknown = new Anthropic({ baseURL: proxy.url, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'x-agent-doubles-lane': 'nobody' } })
    const error = await unknown.messages.create({ model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'c' }] }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ status: 404, message: expect.stringContaining('nobody') })
    expect(proxy.requests).toContainEqual(expect.objectContaining({ status: 404, lane: undefined, path: '/v1/messages' }))
  })

  test('the 409 of a lane-less request while two tests run is recorded on the proxy', async () => {
    const proxy = await startProxy()
    proxy.lane('one', { test: true })
    proxy.lane('two', { test: true })
    const answer = await postJson(`${proxy.url}/v1/chat/completions`, { model: 'm', messages: [{ role: 'user', content: 'x' }] })
    expect(answer.status).toBe(409)
    expect(proxy.requests).toEqual([expect.objectContaining({ status: 409, method: 'POST', path: '/v1/chat/completions', error: expect.objectContaining({ message: expect.stringContaining('"one", "two"') }) })])
  })

  test('refused WebSocket upgrades are recorded as refused requests are: the 409 at the root, a closed lane, an unknown path', async () => {
    const proxy = await startProxy()
    proxy.lane('one', { test: true })
    const two = proxy.lane('two', { test: true })
    expect(await upgradeStatus(`${proxy.url}/v1/responses`)).toBe(409)
    const gone = proxy.lane('gone')
    const goneUrl = gone.url
    await gone.close()
    expect(await upgradeStatus(`${goneUrl}/v1/realtime?model=gpt-realtime`)).toBe(404)
    expect(await upgradeStatus(`${two.url}/v1/nowhere`)).toBe(404)
    expect(proxy.requests.filter((request) => request.lane === undefined)).toEqual([
      expect.objectContaining({ status: 409, method: 'GET', path: '/v1/responses', dialect: 'openai-responses', error: expect.objectContaining({ message: expect.stringContaining('"one", "two"') }) }),
      expect.objectContaining({ status: 404, method: 'GET', path: '/v1/realtime', dialect: 'openai-realtime', error: expect.objectContaining({ message: expect.stringContaining('"gone"') }) }),
    ])
    // An unknown path in a lane is turned away by the lane, and recorded there.
    expect(two.requests).toEqual([expect.objectContaining({ status: 404, lane: 'two', path: '/v1/nowhere', error: expect.objectContaining({ message: expect.stringContaining('no WebSocket route') }) })])
  })

  test('x-agent-doubles-lane names the lane of a WebSocket too', async () => {
    const proxy = await startProxy()
    proxy.lane('one', { test: true })
    const two = proxy.lane('two', { test: true })
    two.use(scriptedLLM(['over the socket']))
    const ws = new WebSocket(`${proxy.url.replace(/^http/, 'ws')}/v1/responses`, { headers: { 'x-agent-doubles-lane': 'two' } })
    const completed = new Promise<Record<string, unknown>>((resolve, reject) => {
      ws.on('message', (data) => {
        const event = JSON.parse(String(data)) as Record<string, unknown>
        if (event.type === 'response.completed') resolve(event)
      })
      ws.once('error', reject)
    })
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    ws.send(JSON.stringify({ type: 'response.create', model: 'gpt-5', input: 'hi' }))
    expect(JSON.stringify(await completed)).toContain('over the socket')
    ws.close()
    expect(two.requests.map((request) => [request.lane, request.session])).toEqual([['two', two.sessions[0]!.id]])
    expect(proxy.requests.filter((request) => request.status !== undefined)).toEqual([])
  })
})

/** The status an upgrade to `url` is refused with (`ws`'s `unexpected-response`), or 101 when it is served. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws'))
    ws.once('unexpected-response', (_req, res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
      ws.terminate()
    })
    ws.once('open', () => {
      resolve(101)
      ws.close()
    })
    ws.once('error', reject)
  })
}

describe("Claude Code's requests", () => {
  const claudeClient = (url: string, betas = CLAUDE_BETAS): Anthropic =>
    new Anthropic({ baseURL: url, apiKey: 'k', maxRetries: 0, defaultHeaders: { 'anthropic-beta': betas, 'user-agent': 'claude-cli/2.1.328 (external, sdk-ts)' } })
  const messages = [
    { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nYou are in a repo.\n</system-reminder>' }, { type: 'text', text: 'Say hi' }] },
    { role: 'system', content: [{ type: 'text', text: '# Environment\nPrimary working directory: /tmp' }] },
  ] as unknown as Anthropic.MessageParam[]

  test('a role:"system" message under its betas is accepted and decoded as system text; lastUserText stays the prompt', async () => {
    const llm = scriptedLLM(['hi'])
    const proxy = await startProxy({ llm })
    const answer = await claudeClient(proxy.url).messages.create({ model: 'claude-opus-5-5', max_tokens: 64, system: 'You are Claude Code.', messages })
    expect(answer.content).toEqual([expect.objectContaining({ text: 'hi' })])
    expect(proxy).toHaveSentValidRequests()
    expect(proxy).toHaveBeenLastCalledWithTask('Say hi')
    expect(llm.requests[0]?.system).toBe('You are Claude Code.\n\n# Environment\nPrimary working directory: /tmp\n\n<system-reminder>\nYou are in a repo.\n</system-reminder>')
  })

  test('without those betas the system message is the 400 the API gives', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['hi']) })
    const error = await claudeClient(proxy.url, 'claude-code-20250219').messages.create({ model: 'm', max_tokens: 64, messages }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ status: 400, message: expect.stringContaining("messages.1.role: Input should be 'user' or 'assistant'") })
  })

  test('count_tokens (also ?beta=true) and the model list in Anthropic shape are side requests; max_tokens:1 probes too', async () => {
    const llm = scriptedLLM(['the only turn'])
    const proxy = await startProxy({ llm })
    const client = claudeClient(proxy.url)
    const counted = await client.messages.countTokens({ model: 'claude-opus-5-5', messages: [{ role: 'user', content: 'count these words please' }] })
    expect(counted.input_tokens).toBeGreaterThan(0)
    const beta = await client.beta.messages.countTokens({ model: 'claude-opus-5-5', messages: [{ role: 'user', content: 'count' }] })
    expect(beta.input_tokens).toBeGreaterThan(0)
    const models = await client.models.list()
    expect(models.data[0]).toMatchObject({ type: 'model', id: expect.any(String), display_name: expect.any(String) })
    const probe = await client.messages.create({ model: 'claude-haiku-4-6', max_tokens: 1, messages: [{ role: 'user', content: 'quota' }] })
    expect(probe.content).toEqual([expect.objectContaining({ type: 'text' })])
    const turn = await client.messages.create({ model: 'claude-opus-5-5', max_tokens: 64, messages: [{ role: 'user', content: 'real question' }] })
    expect(turn.content).toEqual([expect.objectContaining({ text: 'the only turn' })])
    expect(proxy.requests.map((request) => [request.path, request.side ?? false])).toEqual([
      ['/v1/messages/count_tokens', true],
      ['/v1/messages/count_tokens', true],
      ['/v1/models', true],
      ['/v1/messages', true],
      ['/v1/messages', false],
    ])
    expect(proxy).toHaveReceivedRequests(1)
    expect(proxy).toHaveReceivedRequests(5, { includeSide: true })
    expect(llm.callCount).toBe(1)
  })

  test('a rule of the script that matches a side request explicitly answers it', async () => {
    const llm = scriptedLLM(['the turn']).when({ lastUser: 'quota' }, 'probe answered by the rule')
    const proxy = await startProxy({ llm })
    const probe = await claudeClient(proxy.url).messages.create({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'quota' }] })
    expect(probe.content).toEqual([expect.objectContaining({ text: 'probe answered by the rule' })])
    expect(proxy.requests[0]?.side).toBe(true)
    expect(llm.turnsRemaining).toBe(1)
  })

  test('the includeSide option is checked', async () => {
    const proxy = await startProxy()
    expect(() => expect(proxy).toHaveReceivedRequests(0, { includeSide: 'yes' } as never)).toThrow(/includeSide must be a boolean/)
  })
})

describe("Codex's requests", () => {
  const additionalTools = {
    type: 'additional_tools',
    role: 'developer',
    tools: [
      { type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec', description: 'Run JavaScript', format: { type: 'grammar', syntax: 'lark', definition: 'start: /[\\s\\S]+/' } }] },
      { type: 'namespace', name: 'clock', tools: [{ type: 'function', name: 'sleep', parameters: { type: 'object', properties: { duration_ms: { type: 'number' } } } }] },
    ],
  }
  const input = [additionalTools, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] }] as unknown as OpenAI.Responses.ResponseInput

  test('tools in additional_tools are decoded; a scripted call to a custom tool is a custom_tool_call item', async () => {
    const llm = scriptedLLM([toolCall('exec', 'text("hi")'), customToolCall('exec', 'text(1)'), toolCall('sleep', { duration_ms: 1 })])
    const proxy = await startProxy({ llm })
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0 })
    const first = await client.responses.create({ model: 'gpt-6.1-sol', input })
    expect(llm.requests[0]?.tools).toEqual([
      expect.objectContaining({ name: 'exec', custom: true, namespace: 'functions' }),
      expect.objectContaining({ name: 'sleep', namespace: 'clock' }),
    ])
    expect(first.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'exec', input: 'text("hi")', call_id: expect.any(String) })])
    const streamed = await client.responses.stream({ model: 'gpt-6.1-sol', input }).finalResponse()
    expect(streamed.output).toEqual([expect.objectContaining({ type: 'custom_tool_call', name: 'exec', input: 'text(1)' })])
    const namespaced = await client.responses.create({ model: 'gpt-6.1-sol', input })
    expect(namespaced.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'sleep', namespace: 'clock' })])
    expect(proxy).toHaveSentValidRequests()
  })

  test('the custom tool output sent back is decoded as the tool result', async () => {
    const llm = scriptedLLM(['done'])
    const proxy = await startProxy({ llm })
    const client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'k', maxRetries: 0 })
    const followUp = [
      ...(input as unknown[]),
      { type: 'custom_tool_call', call_id: 'call_1', name: 'exec', input: 'text(1)' },
      { type: 'custom_tool_call_output', call_id: 'call_1', output: '1' },
    ] as unknown as OpenAI.Responses.ResponseInput
    await client.responses.create({ model: 'gpt-6.1-sol', input: followUp })
    expect(proxy).toHaveReceivedToolResult('exec', '1')
  })

  test('customToolCall checks its arguments', () => {
    expect(() => customToolCall('exec', { code: 1 } as never)).toThrow(TypeError)
    expect(() => customToolCall('exec', { code: 1 } as never)).toThrow(/customToolCall: input must be a string/)
    expect(() => customToolCall('', 'x')).toThrow(/customToolCall: name must be a non-empty string/)
  })
})

describe("Gemini CLI's requests", () => {
  const genai = (url: string): GoogleGenAI => new GoogleGenAI({ apiKey: 'k', httpOptions: { baseUrl: url } })

  test('function calls carry a thoughtSignature', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([toolCall('read_file', { file_path: 'a.txt' })]) })
    const response = await genai(proxy.url).models.generateContent({
      model: 'gemini-3.8-flash',
      contents: 'read a.txt',
      config: { tools: [{ functionDeclarations: [{ name: 'read_file', parametersJsonSchema: { type: 'object', properties: { file_path: { type: 'string' } } } }] }] },
    })
    const part = response.candidates?.[0]?.content?.parts?.[0]
    expect(part?.functionCall).toMatchObject({ name: 'read_file', args: { file_path: 'a.txt' } })
    expect(part?.thoughtSignature).toEqual(expect.any(String))
  })

  test('its routing call is a side request answered with a valid routing JSON; the script is untouched', async () => {
    const llm = scriptedLLM(['the answer'])
    const proxy = await startProxy({ llm })
    const client = genai(proxy.url)
    const schema = { type: 'object', properties: { complexity_reasoning: { type: 'string' }, complexity_score: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['complexity_reasoning', 'complexity_score'] }
    const routing = await client.models.generateContent({ model: 'gemini-3.5-flash-lite', contents: 'Say hi', config: { responseMimeType: 'application/json', responseJsonSchema: schema } })
    const route = JSON.parse(routing.text ?? '{}') as { complexity_score: number }
    expect(route.complexity_score).toBeGreaterThanOrEqual(1)
    const main = await client.models.generateContent({ model: 'gemini-3.8-flash', contents: 'Say hi' })
    expect(main.text).toBe('the answer')
    expect(proxy.requests.map((request) => request.side ?? false)).toEqual([true, false])
    expect(llm.callCount).toBe(1)
  })

  test('a failing brain is a 400 naming the turn, which the client does not retry', async () => {
    const llm = scriptedLLM(['one'])
    const proxy = await startProxy({ llm })
    await genai(proxy.url).models.generateContent({ model: 'gemini-3.8-flash', contents: 'first' })
    const error = await genai(proxy.url).models.generateContent({ model: 'gemini-3.8-flash', contents: 'second' }).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ status: 400, message: expect.stringMatching(/ScriptedLLM, turn 2\) threw: Error: scripted: script exhausted at turn 2/) })
    expect(llm.callCount).toBe(2)
  })
})
