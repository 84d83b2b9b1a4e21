/**
 * `ProxyError` and one subclass per refusal code, all generated from the table in
 * `refusal-codes.ts`. Import them from `proxy-error.ts`, which adds `proxyError(err)`
 * (read-proxy-error.ts) without the two files importing each other.
 *
 * In the gateway's room, which `src/llm` (a `ScriptedLLM` reply may be a `refusal(...)`) and
 * the server both use; it imports neither.
 * @module
 */
import { PREFIX, argumentError, checkOptions, is } from '../internal/describe.js'
import { isRefusalCode, refusalCodes, type RefusalCode } from './refusal-codes.js'

/**
 * The brand every `ProxyError` carries. `Symbol.for` makes it the same symbol in the ESM and
 * CJS copies of this package, so `instanceof` and `isProxyError` hold across them.
 */
const BRAND = Symbol.for('agent-doubles.proxy-error')

/** What a `ProxyError` says beyond its code. */
export interface ProxyErrorDetail {
  /** The error's message. @default the code's meaning from `refusalCodes` */
  message?: string
  /** What to do about it. */
  hint?: string
  /** The HTTP status it came with. @default the code's status from `refusalCodes` */
  status?: number
  /** The error it was read from, such as the SDK's `APIError`. */
  cause?: unknown
}

/** `agent_required` → `AgentRequired`: the class name of each code. */
function className(code: RefusalCode): string {
  return code.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase())
}

/** A list of every code, for messages that must say what is valid. */
function validCodes(): string {
  return Object.keys(refusalCodes).join(', ')
}

/**
 * A refusal from the proxy (SPEC §5.4), with its stable `code`, HTTP `status` and `hint`.
 * Each code has its own subclass (`AgentRequired`, …, `UpstreamTimeout`); `instanceof` works
 * across copies of this package, and a subclass matches only errors with its code.
 * @example
 * if (proxyError(err) instanceof UpstreamResponseLost) return // the work may be done: don't resend
 * @throws {RangeError} `code` is not a refusal code.
 */
export class ProxyError<C extends RefusalCode = RefusalCode> extends Error {
  /** The code a subclass stands for; `undefined` on `ProxyError` itself. */
  static readonly code: RefusalCode | undefined = undefined

  /** The refusal code, such as `'upstream_response_lost'`. */
  readonly code: C
  /** The HTTP status the proxy answered with. */
  readonly status: number
  /** What to do about it, when the proxy said. */
  readonly hint: string | undefined
  /** Whether model clients retry this code on their own (`x-should-retry: true`). */
  readonly retried: boolean

  constructor(code: C, detail: ProxyErrorDetail = {}) {
    if (!isRefusalCode(code)) {
      throw new RangeError(`${PREFIX} ProxyError: unknown refusal code ${JSON.stringify(code)}; valid codes: ${validCodes()}`)
    }
    super(detail.message ?? refusalCodes[code].meaning, detail.cause === undefined ? undefined : { cause: detail.cause })
    this.name = className(code)
    this.code = code
    this.status = detail.status ?? refusalCodes[code].status
    this.hint = detail.hint
    this.retried = refusalCodes[code].retried
    Object.defineProperty(this, BRAND, { value: true })
  }

  /** Branded check, so `instanceof` holds across the ESM and CJS copies of the package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    if (!isProxyError(value)) return false
    return this.code === undefined || value.code === this.code
  }

  /** The error as plain data, for logs and matcher messages. */
  toJSON(): { name: string; code: C; status: number; message: string; hint?: string } {
    const json = { name: this.name, code: this.code, status: this.status, message: this.message }
    return this.hint === undefined ? json : { ...json, hint: this.hint }
  }
}

/** The constructor of one code's subclass. */
export interface ProxyErrorClass<C extends RefusalCode> {
  new (detail?: ProxyErrorDetail): ProxyError<C>
  readonly code: C
}

/** Builds the subclass for one code, named after it. */
function subclass<C extends RefusalCode>(code: C): ProxyErrorClass<C> {
  const Subclass = class extends ProxyError<C> {
    static override readonly code: C = code
    constructor(detail?: ProxyErrorDetail) {
      super(code, detail)
    }
  }
  Object.defineProperty(Subclass, 'name', { value: className(code) })
  return Subclass
}

/** `agent_required` (400): a strict proxy got a request that names no agent. */
export const AgentRequired = subclass('agent_required')
/** `invalid_agent_name` (400): the agent or subagent name is malformed. */
export const InvalidAgentName = subclass('invalid_agent_name')
/** `feature_unsupported` (400): the request needs a feature the proxy does not report. */
export const FeatureUnsupported = subclass('feature_unsupported')
/** `agent_unknown` (403): the agent is not enrolled. */
export const AgentUnknown = subclass('agent_unknown')
/** `policy_denied` (403): the proxy's policy refused the request. */
export const PolicyDenied = subclass('policy_denied')
/** `definition_unknown` (409): the definition is not the agent's latest registration. */
export const DefinitionUnknown = subclass('definition_unknown')
/** `definition_invalid` (422): the agent definition is invalid. */
export const DefinitionInvalid = subclass('definition_invalid')
/** `files_unknown` (422): a definition names skill or memory files the proxy does not hold. */
export const FilesUnknown = subclass('files_unknown')
/** `rate_limited` (429, retried by the SDKs). */
export const RateLimited = subclass('rate_limited')
/** `signing_failed` (500, retried by the SDKs): the proxy could not sign the request. */
export const SigningFailed = subclass('signing_failed')
/** `internal_error` (500, retried by the SDKs). */
export const InternalError = subclass('internal_error')
/** `upstream_unreachable` (502, retried by the SDKs). */
export const UpstreamUnreachable = subclass('upstream_unreachable')
/** `upstream_response_lost` (502, never retried): the upstream may have done the work. */
export const UpstreamResponseLost = subclass('upstream_response_lost')
/** `upstream_timeout` (504, retried by the SDKs). */
export const UpstreamTimeout = subclass('upstream_timeout')

/** An `agent_required` refusal. */ export type AgentRequired = ProxyError<'agent_required'>
/** An `invalid_agent_name` refusal. */ export type InvalidAgentName = ProxyError<'invalid_agent_name'>
/** A `feature_unsupported` refusal. */ export type FeatureUnsupported = ProxyError<'feature_unsupported'>
/** An `agent_unknown` refusal. */ export type AgentUnknown = ProxyError<'agent_unknown'>
/** A `policy_denied` refusal. */ export type PolicyDenied = ProxyError<'policy_denied'>
/** A `definition_unknown` refusal. */ export type DefinitionUnknown = ProxyError<'definition_unknown'>
/** A `definition_invalid` refusal. */ export type DefinitionInvalid = ProxyError<'definition_invalid'>
/** A `files_unknown` refusal. */ export type FilesUnknown = ProxyError<'files_unknown'>
/** A `rate_limited` refusal. */ export type RateLimited = ProxyError<'rate_limited'>
/** A `signing_failed` refusal. */ export type SigningFailed = ProxyError<'signing_failed'>
/** An `internal_error` refusal. */ export type InternalError = ProxyError<'internal_error'>
/** An `upstream_unreachable` refusal. */ export type UpstreamUnreachable = ProxyError<'upstream_unreachable'>
/** An `upstream_response_lost` refusal. */ export type UpstreamResponseLost = ProxyError<'upstream_response_lost'>
/** An `upstream_timeout` refusal. */ export type UpstreamTimeout = ProxyError<'upstream_timeout'>

/** Every subclass, by code: how `createProxyError` picks the class. */
const classes: { readonly [C in RefusalCode]: ProxyErrorClass<C> } = {
  agent_required: AgentRequired,
  invalid_agent_name: InvalidAgentName,
  feature_unsupported: FeatureUnsupported,
  agent_unknown: AgentUnknown,
  policy_denied: PolicyDenied,
  definition_unknown: DefinitionUnknown,
  definition_invalid: DefinitionInvalid,
  files_unknown: FilesUnknown,
  rate_limited: RateLimited,
  signing_failed: SigningFailed,
  internal_error: InternalError,
  upstream_unreachable: UpstreamUnreachable,
  upstream_response_lost: UpstreamResponseLost,
  upstream_timeout: UpstreamTimeout,
}

/**
 * The typed subclass instance for `code`.
 * @example
 * throw createProxyError('agent_unknown', { message: 'agent "x" is not enrolled' })
 * @throws {RangeError} `code` is not a refusal code.
 */
export function createProxyError<C extends RefusalCode>(code: C, detail?: ProxyErrorDetail): ProxyError<C> {
  if (!isRefusalCode(code)) {
    throw new RangeError(`${PREFIX} createProxyError: unknown refusal code ${JSON.stringify(code)}; valid codes: ${validCodes()}`)
  }
  const Class = classes[code] as ProxyErrorClass<C>
  return new Class(detail)
}

/**
 * A proxy refusal as a value: what a `ScriptedLLM` reply returns (or throws) to make the proxy
 * refuse with `code`.
 * @example
 * const llm = new ScriptedLLM([refusal('upstream_timeout'), 'ok'])
 * @throws {RangeError} `code` is not a refusal code (the message lists the valid ones).
 * @throws {TypeError} `opts` is not `{ message?: string, hint?: string }`.
 */
export function refusal(code: RefusalCode, opts?: { message?: string; hint?: string }): ProxyError {
  if (typeof code !== 'string') throw argumentError('refusal()', 'code', 'a refusal code string', code)
  if (!isRefusalCode(code)) {
    throw new RangeError(`${PREFIX} refusal(): unknown refusal code ${JSON.stringify(code)}; valid codes: ${validCodes()}`)
  }
  checkOptions('refusal()', opts, { message: ['a string', is.string], hint: ['a string', is.string] })
  return createProxyError(code, { message: opts?.message, hint: opts?.hint })
}

/** Whether `value` is a `ProxyError` from any copy of this package. */
export function isProxyError(value: unknown): value is ProxyError {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true
}
