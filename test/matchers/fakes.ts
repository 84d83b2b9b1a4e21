/**
 * Small hand-made stand-ins carrying the doubles' brands and recorded fields, so the matchers
 * are tested on exactly the data they read, independent of the doubles' behaviour.
 */
import { KIND } from '../../src/kinds.js'
import type { ModelRequest, ModelResponse, Part } from '../../src/llm/types.js'
import type { FakeRequest, Refusal } from '../../src/server/types.js'

export function userRequest(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'mock', messages: [{ role: 'user', content: [{ type: 'text', text }] }], stream: false, ...extra }
}

export function reply(content: Part[]): ModelResponse {
  return { content, finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } }
}

export function fakeAgent(name: string, tasks: string[]) {
  return { [KIND]: 'MockAgent', name, calls: tasks.map((task) => ({ task, context: undefined, elapsedMs: 0 })) }
}

export function fakeLLM(requests: ModelRequest[], responses: Array<ModelResponse | undefined> = [], turnsRemaining?: number) {
  return {
    [KIND]: 'ScriptedLLM',
    requests,
    responses,
    turnsRemaining,
    assertComplete() {
      if (turnsRemaining) throw new Error(`scripted: ${turnsRemaining} turn(s) not consumed`)
    },
  }
}

export function fakeRequest(request: ModelRequest, extra: Partial<FakeRequest> = {}): FakeRequest {
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    agent: undefined,
    definitionCid: undefined,
    subagent: undefined,
    headers: {},
    body: new Uint8Array(),
    json: null,
    dialect: 'openai-chat',
    model: request.model,
    stream: false,
    request,
    ...extra,
  }
}

export function fakeProxy(
  requests: FakeRequest[] = [],
  refusals: Refusal[] = [],
  definitions: Record<string, object> = {},
) {
  return { [KIND]: 'FakeProxy', requests, refusals, definitions }
}
