/**
 * Token counts (SPEC §20): OpenAI models are counted with their real tokenizer — the counts equal
 * gpt-tokenizer's reference encodings of the same prompts — other models with the documented
 * estimate, and each count endpoint answers what the same prompt reports as usage.
 */
import { BedrockRuntimeClient, ConverseCommand, CountTokensCommand } from '@aws-sdk/client-bedrock-runtime'
import { GoogleGenAI } from '@google/genai'
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base'
import * as o200k from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, onTestFinished, test } from 'vitest'
import { countTokens, estimateTokenCount, prepareTokenCounter, scriptedLLM, tokenCounterFor } from '../../src/index.js'
import { anthropicFor, openaiFor, startProxy } from '../proxy/helpers.js'

const prompts = [
  'Hello, world!',
  'You are a careful travel agent. Book only refundable fares, and confirm every date twice.',
  'Ünïcödé, emoji 🚀 and CJK 漢字 all count as the tokenizer counts them.',
  'Text that spells a special token, <|endoftext|>, is ordinary text in a prompt.',
]

describe('the tokenizer', () => {
  test('OpenAI models pick their encoding by name; others are estimated', () => {
    expect(['gpt-5', 'gpt-5-mini', 'gpt-4.1-nano', 'gpt-4o-2024-08-06', 'o3', 'o4-mini', 'chatgpt-4o-latest'].map(tokenCounterFor)).toEqual(Array(7).fill('o200k_base'))
    expect(['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo', 'text-embedding-3-small'].map(tokenCounterFor)).toEqual(Array(4).fill('cl100k_base'))
    expect(['claude-sonnet-4-5', 'gemini-2.5-flash', 'anthropic.claude-haiku-4-5-20251001-v1:0', 'llama3.2'].map(tokenCounterFor)).toEqual(Array(4).fill('estimate'))
  })

  test('counts of fixed prompts equal the reference tokenizer’s, once it is loaded', async () => {
    await prepareTokenCounter('gpt-4o')
    await prepareTokenCounter('gpt-4')
    for (const prompt of prompts) {
      expect(countTokens(prompt, 'gpt-4o')).toBe(o200k.encode(prompt, { disallowedSpecial: new Set() }).length)
      expect(countTokens(prompt, 'gpt-4')).toBe(cl100k.encode(prompt, { disallowedSpecial: new Set() }).length)
    }
    // A long text is counted once and remembered; the count stays the reference's.
    const long = prompts.join(' ').repeat(200)
    expect(countTokens(long, 'gpt-5')).toBe(o200k.countTokens(long, { disallowedSpecial: new Set() }))
    expect(countTokens(long, 'gpt-5')).toBe(o200k.countTokens(long, { disallowedSpecial: new Set() }))
    expect(countTokens('Hello, world!', 'gpt-4o')).toBe(4)
  })

  test('the estimate is one token per four characters, rounded up', () => {
    expect(estimateTokenCount('Hello, world!')).toBe(4)
    expect(countTokens('abcdefgh', 'claude-opus-4-5')).toBe(2)
    expect(countTokens('', 'gpt-4o')).toBe(0)
  })
})

describe('usage counts through the real SDKs', () => {
  test('Chat Completions: prompt_tokens equals the tokenizer’s chat encoding, completion_tokens the answer’s tokens', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['The capital of France is Paris.', 'Paris.']) })
    const messages = [
      { role: 'system' as const, content: prompts[1]! },
      { role: 'user' as const, content: prompts[2]! },
    ]
    const answer = await openaiFor(proxy).chat.completions.create({ model: 'gpt-4o', messages })
    expect(answer.usage?.prompt_tokens).toBe(o200k.encodeChat(messages, 'gpt-4o').length)
    expect(answer.usage?.completion_tokens).toBe(o200k.encode('The capital of France is Paris.').length)
    // The same with cl100k_base for GPT-4.
    const gpt4 = await openaiFor(proxy).chat.completions.create({ model: 'gpt-4', messages })
    expect(gpt4.usage?.prompt_tokens).toBe(cl100k.encodeChat(messages, 'gpt-4').length)
  })

  test('Responses: instructions and input count as a system and a user message, streamed too', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['one', 'two']) })
    const expected = o200k.encodeChat([{ role: 'system', content: prompts[1]! }, { role: 'user', content: prompts[0]! }], 'gpt-4o').length
    const answer = await openaiFor(proxy).responses.create({ model: 'gpt-5', instructions: prompts[1], input: prompts[0] })
    expect(answer.usage?.input_tokens).toBe(expected)
    const stream = openaiFor(proxy).responses.stream({ model: 'gpt-5', instructions: prompts[1], input: prompts[0] })
    expect((await stream.finalResponse()).usage?.input_tokens).toBe(expected)
  })

  test('a count a test gave is kept; only estimates are recounted', async () => {
    const proxy = await startProxy({ llm: scriptedLLM([{ text: 'hi', usage: { inputTokens: 5, outputTokens: 1 } }]) })
    const answer = await openaiFor(proxy).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: prompts[1]! }] })
    expect(answer.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 1 })
  })

  test('Anthropic count_tokens answers the input a message with the same prompt reports', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['ok']) })
    const body = { model: 'claude-sonnet-4-5', system: prompts[1]!, messages: [{ role: 'user' as const, content: prompts[2]! }] }
    const counted = await anthropicFor(proxy).messages.countTokens(body)
    const sent = await anthropicFor(proxy).messages.create({ ...body, max_tokens: 10 })
    expect(counted.input_tokens).toBe(estimateTokenCount(prompts[1]!) + estimateTokenCount(prompts[2]!))
    expect(sent.usage.input_tokens).toBe(counted.input_tokens)
    // Counting is not model traffic: only the message is recorded.
    expect(proxy.requests.map((request) => request.path)).toEqual(['/v1/messages/count_tokens', '/v1/messages'])
  })

  test('Gemini countTokens answers the promptTokenCount generateContent reports', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['ok']) })
    const genai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: proxy.url } })
    const contents = [{ role: 'user', parts: [{ text: prompts[1]! }, { text: prompts[2]! }] }]
    const counted = await genai.models.countTokens({ model: 'gemini-2.5-flash', contents })
    const answer = await genai.models.generateContent({ model: 'gemini-2.5-flash', contents })
    expect(counted.totalTokens).toBe(estimateTokenCount(prompts[1]!) + estimateTokenCount(prompts[2]!))
    expect(answer.usageMetadata?.promptTokenCount).toBe(counted.totalTokens)
  })

  test('Bedrock CountTokens answers the inputTokens Converse reports, for Converse and InvokeModel input', async () => {
    const proxy = await startProxy({ llm: scriptedLLM(['ok']) })
    const client = new BedrockRuntimeClient({ endpoint: proxy.url, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' }, maxAttempts: 1 })
    onTestFinished(() => client.destroy())
    const modelId = 'anthropic.claude-sonnet-4-5-20250929-v1:0'
    const converse = { system: [{ text: prompts[1]! }], messages: [{ role: 'user' as const, content: [{ text: prompts[2]! }] }] }
    const counted = await client.send(new CountTokensCommand({ modelId, input: { converse } }))
    const answer = await client.send(new ConverseCommand({ modelId, ...converse }))
    expect(counted.inputTokens).toBe(estimateTokenCount(prompts[1]!) + estimateTokenCount(prompts[2]!))
    expect(answer.usage?.inputTokens).toBe(counted.inputTokens)
    const body = new TextEncoder().encode(JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 10, system: prompts[1], messages: [{ role: 'user', content: prompts[2] }] }))
    const invoke = await client.send(new CountTokensCommand({ modelId, input: { invokeModel: { body } } }))
    expect(invoke.inputTokens).toBe(counted.inputTokens)
  })
})
