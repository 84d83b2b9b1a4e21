/**
 * Request bodies with `n` tool calls each answered by a tool result, one per generation dialect,
 * for the test that matching results to calls stays linear (SPEC §24). Each body is the
 * dialect's own way of carrying the pairs, so each dialect's decoder and validator do the match.
 */

/** A route, and the body that carries `n` call/result pairs on it. */
export interface PairsTarget {
  readonly dialect: string
  readonly path: string
  readonly body: (n: number) => unknown
}

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `call_${i}`)

export const pairsTargets: readonly PairsTarget[] = [
  {
    dialect: 'openai-chat',
    path: '/v1/chat/completions',
    body: (n) => ({
      model: 'gpt-5',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: null, tool_calls: ids(n).map((id) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } })) },
        ...ids(n).map((id) => ({ role: 'tool', tool_call_id: id, content: 'ok' })),
      ],
    }),
  },
  {
    dialect: 'openai-responses',
    path: '/v1/responses',
    body: (n) => ({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'go' },
        ...ids(n).map((id) => ({ type: 'function_call', call_id: id, name: 'f', arguments: '{}' })),
        ...ids(n).map((id) => ({ type: 'function_call_output', call_id: id, output: 'ok' })),
      ],
    }),
  },
  {
    dialect: 'anthropic-messages',
    path: '/v1/messages',
    body: (n) => ({
      model: 'claude',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: ids(n).map((id) => ({ type: 'tool_use', id, name: 'f', input: {} })) },
        { role: 'user', content: ids(n).map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' })) },
      ],
    }),
  },
  {
    dialect: 'gemini',
    path: '/v1beta/models/gemini-2.5-flash:generateContent',
    body: (n) => ({
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: ids(n).map((id) => ({ functionCall: { id, name: 'f', args: {} } })) },
        // Answered by name, the way @google/genai sends them: the last open call of that name is reached only at the end.
        { role: 'user', parts: ids(n).map(() => ({ functionResponse: { name: 'f', response: { ok: true } } })) },
      ],
    }),
  },
  {
    dialect: 'ollama',
    path: '/api/chat',
    body: (n) => ({
      model: 'llama3',
      stream: false,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', tool_calls: ids(n).map(() => ({ function: { name: 'f', arguments: {} } })) },
        ...ids(n).map((id) => ({ role: 'tool', tool_call_id: `${id}_missing`, tool_name: 'f', content: 'ok' })),
      ],
    }),
  },
  {
    dialect: 'bedrock-converse',
    path: '/model/anthropic.claude-3-haiku/converse',
    body: (n) => ({
      messages: [
        { role: 'user', content: [{ text: 'go' }] },
        { role: 'assistant', content: ids(n).map((id) => ({ toolUse: { toolUseId: id, name: 'f', input: {} } })) },
        { role: 'user', content: ids(n).map((id) => ({ toolResult: { toolUseId: id, content: [{ text: 'ok' }] } })) },
      ],
    }),
  },
  {
    dialect: 'bedrock-invoke',
    path: '/model/anthropic.claude-3-haiku/invoke',
    body: (n) => ({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: ids(n).map((id) => ({ type: 'tool_use', id, name: 'f', input: {} })) },
        { role: 'user', content: ids(n).map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' })) },
      ],
    }),
  },
]
