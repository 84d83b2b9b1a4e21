/**
 * Gemini on Vertex AI: the Gemini dialects themselves (same bodies, same streams, same errors),
 * told the model and method from Vertex's path. Nothing is translated: the request target the
 * Gemini codec reads is the one the Gemini API would have had.
 * @module
 */
import type { DirectDialect, EncodeContext, ModelDialect, RequestTarget, WireDialect } from '../dialect.js'
import { vertexTarget } from './routes.js'

/** The Gemini API's target for a Vertex one: `/v1beta/models/{model}:{method}`, the same query. */
function geminiTarget(target: RequestTarget | undefined): RequestTarget | undefined {
  const found = vertexTarget(target)
  if (!target || !found) return target
  return { path: `/v1beta/models/${encodeURIComponent(found.model)}:${found.method}`, query: target.query }
}

function retargeted<C extends EncodeContext>(context: C): C {
  return context.target ? { ...context, target: geminiTarget(context.target) } : context
}

/**
 * `dialect` (a Gemini one) served on Vertex's paths.
 * @example
 * onVertex(geminiGenerate).decode(json, { path: '/v1/projects/p/locations/l/publishers/google/models/gemini-2.5-flash:generateContent', query })
 */
export function onVertex<D extends WireDialect>(dialect: D): D {
  const prepare = dialect.prepare
  const base = {
    ...dialect,
    decode: (json: Record<string, unknown>, target?: RequestTarget, memory?: Parameters<WireDialect['decode']>[2]) => dialect.decode(json, geminiTarget(target), memory),
    ...(prepare ? { prepare: (json: Record<string, unknown>, target: RequestTarget) => prepare(json, geminiTarget(target) ?? target) } : {}),
  }
  if (dialect.kind === 'model') {
    const model: ModelDialect = dialect
    return {
      ...base,
      encodeJson: (response, context) => model.encodeJson(response, retargeted(context)),
      encodeStream: (context, emit) => model.encodeStream(retargeted(context), emit),
      streamError: (message, framesSent, context, name) => model.streamError(message, framesSent, retargeted(context), name),
      ...(model.framing ? { framing: (context: EncodeContext) => model.framing!(retargeted(context)) } : {}),
    } as ModelDialect as D
  }
  const direct: DirectDialect = dialect
  return {
    ...base,
    answer: (request, context) => direct.answer(request, retargeted(context)),
    ...(direct.answerText ? { answerText: (request: Parameters<DirectDialect['answer']>[0], context: Parameters<DirectDialect['answer']>[1]) => direct.answerText!(request, retargeted(context)) } : {}),
  } as DirectDialect as D
}
