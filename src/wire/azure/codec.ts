/**
 * Azure OpenAI: the OpenAI dialects on Azure's paths. `/openai/deployments/{deployment}/…` and
 * `/openai/responses` need an `api-version` query (without one Azure answers 404 "Resource not
 * found"); the `/openai/v1/…` paths do not. On a deployment path the deployment names the
 * model, whatever the body says, as on Azure.
 * @module
 */
import { BadRequest, type RequestTarget, type WireDialect } from '../dialect.js'
import { azureErrorAnswer, azureProviderError } from './errors.js'
import { decodeSegment } from '../params.js'

/** `/openai/deployments/{deployment}/{operation}`, capturing both. */
export const AZURE_DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings|responses)$/

/** `/openai/v1/{operation}` and `/openai/{operation}`, capturing the version segment and the operation. */
export const AZURE_OPENAI_PATH = /^\/openai(\/v1)?\/(chat\/completions|embeddings|responses|models(?:\/[^/]+)?)$/

function requireApiVersion(target: RequestTarget | undefined): void {
  if (!target?.query.get('api-version')) throw new BadRequest('Resource not found', undefined, { status: 404 })
}

function deploymentOf(target: RequestTarget | undefined): string | undefined {
  const match = target && AZURE_DEPLOYMENT_PATH.exec(target.path)
  return match ? decodeSegment(match[1]) : undefined
}

/**
 * `dialect` served on an Azure path: the same answers, with Azure's `api-version` check
 * (`versioned`: the path is one of the `/openai/v1/…` ones that need none) and, on a
 * deployment path, the deployment as the model.
 */
export function onAzure<D extends WireDialect>(dialect: D, versioned: boolean): D {
  return {
    ...dialect,
    errorAnswer: azureErrorAnswer,
    providerError: azureProviderError,
    prepare: (json, target) => {
      if (!versioned) requireApiVersion(target)
      const deployment = deploymentOf(target)
      return deployment === undefined ? json : { ...json, model: deployment }
    },
  }
}
