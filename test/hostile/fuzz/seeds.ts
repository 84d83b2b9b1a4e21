/**
 * A valid body for every dialect the proxy serves, the starting point of the fuzz pass's
 * mutations. Keyed by dialect id: a dialect added to src/wire/dialects.ts without a body here
 * fails the pass, so no route goes unfuzzed.
 */
const schema = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'string', enum: ['x', 'y'] } }, required: ['a'] }

const anthropicMessages = [
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: [{ type: 'text', text: 'calling' }, { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'ok' }] }, { type: 'text', text: 'go on' }] },
]
const anthropicTools = [{ name: 'f', description: 'does f', input_schema: schema }]
const geminiContents = [
  { role: 'user', parts: [{ text: 'hi' }] },
  { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] },
  { role: 'user', parts: [{ functionResponse: { name: 'f', response: { ok: true } } }, { text: 'go on' }] },
]
const converseMessages = [
  { role: 'user', content: [{ text: 'hi' }] },
  { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: { a: 1 } } }] },
  { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'ok' }, { json: { ok: true } }], status: 'success' } }, { text: 'go on' }] },
]

const seeds: Readonly<Record<string, (path: string) => unknown>> = {
  'openai-chat': () => ({
    model: 'gpt-5',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
    ],
    tools: [{ type: 'function', function: { name: 'f', description: 'does f', parameters: schema } }],
    tool_choice: 'auto',
    temperature: 0.5,
    max_tokens: 50,
    n: 1,
    stream: false,
    response_format: { type: 'text' },
  }),
  'openai-responses': () => ({
    model: 'gpt-5',
    instructions: 'be brief',
    input: [
      { role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
    ],
    tools: [{ type: 'function', name: 'f', description: 'does f', parameters: schema }],
    max_output_tokens: 50,
    text: { format: { type: 'text' } },
    store: true,
  }),
  'anthropic-messages': (path) => ({
    ...(path.includes('/projects/') ? { anthropic_version: 'vertex-2023-10-16' } : { model: 'claude-sonnet-4-5' }),
    max_tokens: 50,
    system: [{ type: 'text', text: 'be brief' }],
    messages: anthropicMessages,
    tools: anthropicTools,
    tool_choice: { type: 'auto' },
    temperature: 0.5,
  }),
  'anthropic-count-tokens': () => ({ model: 'claude-sonnet-4-5', system: 'be brief', messages: anthropicMessages, tools: anthropicTools }),
  'openai-embeddings': () => ({ model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 8, encoding_format: 'float' }),
  'openai-models': () => ({}),
  'gemini-generate': () => ({
    contents: geminiContents,
    systemInstruction: { parts: [{ text: 'be brief' }] },
    tools: [{ functionDeclarations: [{ name: 'f', description: 'does f', parameters: { type: 'OBJECT', properties: { a: { type: 'NUMBER' } }, required: ['a'] } }] }],
    toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    generationConfig: { temperature: 0.5, maxOutputTokens: 50, candidateCount: 1 },
  }),
  'gemini-count-tokens': () => ({ contents: geminiContents }),
  'gemini-embed': (path) =>
    path.endsWith(':batchEmbedContents')
      ? { requests: [{ model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } }, { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] } }] }
      : { content: { parts: [{ text: 'hi' }] }, outputDimensionality: 8 },
  'gemini-models': () => ({}),
  'ollama-chat': () => ({
    model: 'llama3',
    stream: false,
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi', images: [] },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] },
      { role: 'tool', tool_name: 'f', content: 'ok' },
    ],
    tools: [{ type: 'function', function: { name: 'f', description: 'does f', parameters: schema } }],
    options: { temperature: 0.5, num_predict: 50 },
  }),
  'ollama-generate': () => ({ model: 'llama3', prompt: 'hi', system: 'be brief', stream: false, options: { num_predict: 20 } }),
  'ollama-embed': (path) => (path.endsWith('/embeddings') ? { model: 'nomic-embed-text', prompt: 'hi' } : { model: 'nomic-embed-text', input: ['a', 'b'] }),
  'ollama-tags': () => ({}),
  'bedrock-converse': () => ({
    messages: converseMessages,
    system: [{ text: 'be brief' }],
    inferenceConfig: { maxTokens: 50, temperature: 0.5 },
    toolConfig: { tools: [{ toolSpec: { name: 'f', description: 'does f', inputSchema: { json: schema } } }], toolChoice: { auto: {} } },
  }),
  'bedrock-invoke': () => ({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 50, system: 'be brief', messages: anthropicMessages, tools: anthropicTools }),
  'bedrock-embed': () => ({ inputText: 'hi', dimensions: 256, normalize: true }),
  'bedrock-count-tokens': () => ({ input: { converse: { messages: converseMessages, system: [{ text: 'be brief' }] } } }),
}

/** A valid body for `dialect` on `path`; throws for a dialect with none, so a new route is not skipped. */
export function seedBody(dialect: string, path: string): unknown {
  const seed = seeds[dialect]
  if (!seed) throw new Error(`test/hostile/fuzz/seeds.ts has no valid body for the dialect ${dialect} (${path}): add one so the fuzz pass covers it`)
  return seed(path)
}
