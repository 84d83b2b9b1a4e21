import { describe, expect, it } from 'vitest'
import { generateText, Output, stepCountIs, streamText, tool } from 'ai'
import { z } from 'zod'
import { ScriptedLLM, scriptedLLM } from '../../src/llm/scripted-llm.js'
import { lastUserText, toolCall } from '../../src/llm/helpers.js'

const weatherTool = tool({
  description: 'Weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, forecast: 'sunny' }),
})

describe('ai 6 on languageModel()', () => {
  it('runs generateText and records the neutral request', async () => {
    const llm = scriptedLLM({ hello: 'hi there' })
    const result = await generateText({ model: llm.languageModel(), system: 'Be kind.', prompt: 'Hello!', temperature: 0.5, maxOutputTokens: 50 })
    expect(result.text).toBe('hi there')
    expect(result.finishReason).toBe('stop')
    expect(result.usage.outputTokens).toBe(Math.ceil('hi there'.length / 4))
    expect(llm.requests).toEqual([
      {
        model: 'mock',
        system: 'Be kind.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello!' }] }],
        stream: false,
        temperature: 0.5,
        maxTokens: 50,
      },
    ])
  })

  it('records what the caller passed, not the caller\'s objects: changing them later leaves the records alone', async () => {
    const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'done'])
    const model = llm.languageModel()
    const inputSchema = { type: 'object', properties: { city: { type: 'string' } } }
    const input = { city: 'Paris' }
    const output = { type: 'json', value: { forecast: 'sunny' } }
    const prompt = [
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output }] },
    ]
    const first = await model.doGenerate({ prompt, tools: [{ type: 'function', name: 'get_weather', inputSchema }] })
    input.city = 'Rome'
    output.value.forecast = 'rain'
    inputSchema.properties.city.type = 'number'
    ;(first.content[0] as { input: string }).input = '{"city":"Oslo"}'
    expect(llm.requests[0]!.tools![0]!.parameters).toEqual({ type: 'object', properties: { city: { type: 'string' } } })
    expect(llm.requests[0]!.messages[1]!.content[0]).toMatchObject({ args: { city: 'Paris' } })
    expect(llm.requests[0]!.messages[2]!.content[0]).toMatchObject({ result: { forecast: 'sunny' } })
    expect(llm.responses[0]!.content[0]).toMatchObject({ type: 'tool-call', args: { city: 'Paris' } })
    // The scripted turn itself is untouched: a second double over the same script answers as the first did.
    ;(llm.responses[0]!.content[0] as { args: { city: string } }).args.city = 'Lima'
    llm.reset()
    expect((await model.doGenerate({ prompt: prompt.slice(0, 1) })).content[0]).toMatchObject({ input: '{"city":"Paris"}' })
  })

  it('runs streamText, delivering the reply in word chunks', async () => {
    const llm = scriptedLLM(['It is sunny in Paris.'])
    const result = streamText({ model: llm.languageModel('my-model'), prompt: 'weather?' })
    const chunks: string[] = []
    for await (const chunk of result.textStream) chunks.push(chunk)
    expect(chunks).toEqual(['It ', 'is ', 'sunny ', 'in ', 'Paris.'])
    expect(await result.finishReason).toBe('stop')
    expect(llm.requests[0]).toMatchObject({ model: 'my-model', stream: true })
  })

  it('runs structured output (Output.object) and passes the JSON schema on', async () => {
    const llm = scriptedLLM(() => JSON.stringify({ city: 'Paris', celsius: 21 }))
    const { output } = await generateText({
      model: llm.languageModel(),
      output: Output.object({ schema: z.object({ city: z.string(), celsius: z.number() }) }),
      prompt: 'Weather as JSON',
    })
    expect(output).toEqual({ city: 'Paris', celsius: 21 })
    expect(llm.requests[0].responseFormat).toMatchObject({ type: 'json', schema: { type: 'object', required: ['city', 'celsius'] } })
  })

  it('runs a multi-step tool loop, carrying the tool result back to the model', async () => {
    const llm = scriptedLLM([toolCall('get_weather', { city: 'Paris' }), 'It is sunny in Paris.'])
    const result = await generateText({
      model: llm.languageModel(),
      tools: { get_weather: weatherTool },
      stopWhen: stepCountIs(5),
      prompt: 'What is the weather in Paris?',
    })
    expect(result.text).toBe('It is sunny in Paris.')
    expect(result.steps).toHaveLength(2)
    expect(llm.requests[0].tools).toEqual([
      expect.objectContaining({ name: 'get_weather', description: 'Weather for a city', parameters: expect.objectContaining({ type: 'object' }) }),
    ])
    expect(llm.requests[1].messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1_1', name: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', id: 'call_1_1', name: 'get_weather', result: { city: 'Paris', forecast: 'sunny' } }] },
    ])
    llm.assertComplete()
  })

  it('runs a streamed multi-step tool loop', async () => {
    const llm = scriptedLLM([{ reasoning: 'need weather', toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' } }] }, 'Sunny in Oslo.'])
    const result = streamText({ model: llm.languageModel(), tools: { get_weather: weatherTool }, stopWhen: stepCountIs(3), prompt: 'Oslo?' })
    expect(await result.text).toBe('Sunny in Oslo.')
    const [first] = await result.steps
    expect(first.reasoningText).toBe('need weather')
    expect(first.toolResults[0]).toMatchObject({ toolName: 'get_weather', output: { city: 'Oslo', forecast: 'sunny' } })
  })

  it('surfaces an Error reply as a rejected call, for generate and stream', async () => {
    const llm = scriptedLLM([new Error('refused'), new Error('refused again')])
    await expect(generateText({ model: llm.languageModel(), prompt: 'x', maxRetries: 0 })).rejects.toThrow('refused')
    const errors: unknown[] = []
    const result = streamText({ model: llm.languageModel(), prompt: 'x', onError: ({ error }) => void errors.push(error) })
    await result.consumeStream()
    expect(errors).toEqual([expect.objectContaining({ message: 'refused again' })])
  })

  it('gives three concurrent perCall children each the transcript from the top', async () => {
    const transcript = [
      { request: { messages: [] }, response: { content: [{ type: 'tool-call', id: 't1', name: 'get_weather', args: { city: 'Rome' } }] } },
      { request: { messages: [] }, response: { content: [{ type: 'text', text: 'Done.' }] } },
    ]
      .map((turn) => JSON.stringify(turn))
      .join('\n')
    const llm = await ScriptedLLM.fromTranscript(transcript, { perCall: true, latency: { chunkMs: 1 } })
    const children = ['a', 'b', 'c'].map((name) =>
      generateText({ model: llm.languageModel(), tools: { get_weather: weatherTool }, stopWhen: stepCountIs(4), prompt: `child ${name}` }),
    )
    const results = await Promise.all(children)
    expect(results.map((r) => [r.text, r.steps.length, r.steps[0].toolCalls[0]?.input])).toEqual([
      ['Done.', 2, { city: 'Rome' }],
      ['Done.', 2, { city: 'Rome' }],
      ['Done.', 2, { city: 'Rome' }],
    ])
    expect(llm.callCount).toBe(6)
    expect(llm.requests.map(lastUserText).sort()).toEqual(['child a', 'child a', 'child b', 'child b', 'child c', 'child c'])
    llm.assertComplete()
  })

  it('shares one cursor between languageModel() instances without perCall', async () => {
    const llm = scriptedLLM(['one', 'two'])
    const a = await generateText({ model: llm.languageModel(), prompt: 'x' })
    const b = await generateText({ model: llm.languageModel(), prompt: 'x' })
    expect([a.text, b.text]).toEqual(['one', 'two'])
  })

  it('passes image URLs through without downloading them', async () => {
    const llm = scriptedLLM()
    await generateText({
      model: llm.languageModel(),
      messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image', image: new URL('https://example.invalid/cat.png') }] }],
    })
    expect(llm.requests[0].messages[0].content[1]).toEqual({ type: 'image', mediaType: 'image/*', url: 'https://example.invalid/cat.png' })
  })
})
