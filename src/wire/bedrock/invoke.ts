/**
 * Amazon Bedrock's InvokeModel for Anthropic models (`POST /model/{modelId}/invoke` and
 * `/invoke-with-response-stream`): the body is an Anthropic Messages body without `model` (and
 * with `anthropic_version`), the answer is Anthropic's; the stream wraps each Anthropic event's
 * JSON as base64 `bytes` in an event-stream `chunk` message.
 * @module
 */
import { toBase64, utf8Bytes } from '../../internal/bytes.js'
import { BadRequest, frameData, type ModelDialect } from '../dialect.js'
import { anthropicMessages } from '../anthropic-messages/codec.js'
import { bedrockTarget } from './converse.js'
import { bedrockErrorAnswer, bedrockProviderError, bedrockStreamErrorFor } from './errors.js'
import { invokeOutputLimitError } from './limits.js'
import { anthropicLayout } from '../anthropic-messages/cache.js'

/** `POST /model/{modelId}/invoke` and `/invoke-with-response-stream`, for Anthropic models. */
export const bedrockInvoke: ModelDialect = {
  id: 'bedrock-invoke',
  kind: 'model',
  toolCallIds: 'anthropic-tool-use',
  errorStyle: 'openai',
  needs: [],
  errorAnswer: bedrockErrorAnswer,
  providerError: bedrockProviderError,
  outputLimitError: invokeOutputLimitError,
  prompt: { layout: (json) => anthropicLayout(json) },
  decode: (json, target) => {
    const { modelId, operation } = bedrockTarget(target)
    if (!/anthropic|claude/i.test(modelId)) {
      throw new BadRequest(`the fake serves InvokeModel for Anthropic models only; use Converse for ${modelId}`, 'modelId')
    }
    if (typeof json.anthropic_version !== 'string') throw new BadRequest('Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.', 'anthropic_version')
    return { ...anthropicMessages.decode({ ...json, model: modelId }), model: modelId, stream: operation === 'invoke-with-response-stream' }
  },
  encodeJson: (response, context) => anthropicMessages.encodeJson(response, context),
  encodeStream: (context, emit) =>
    anthropicMessages.encodeStream(context, (frame) => emit({ event: 'chunk', data: JSON.stringify({ bytes: toBase64(utf8Bytes(frameData(frame))) }) })),
  framing: () => 'eventstream',
  streamError: (message, _framesSent, _context, name) => [bedrockStreamErrorFor(message, name)],
}
