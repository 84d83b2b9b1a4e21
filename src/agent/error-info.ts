/**
 * `ErrorInfo`: the error an agent reports inside an {@link Envelope} instead of throwing.
 * @module
 */

import { argumentError, checkOptions, is } from '../internal/describe.js'

/** Brand that recognises an `ErrorInfo` from either the ESM or the CJS copy of this package. */
const ERROR_INFO = Symbol.for('agent-doubles.error-info')

/** What {@link ErrorInfo} is built from. */
export interface ErrorInfoInit {
  /** The kind of failure, usually an error class name such as `'TimeoutError'`. */
  type: string
  /** A human-readable description of the failure. */
  message: string
  /**
   * Whether the caller may retry.
   * @default false
   */
  retryable?: boolean
}

/**
 * A failure carried as data in `Envelope.error`, so an orchestrator can route on it rather
 * than catch it.
 * @example
 * const agent = mockAgent(new ErrorInfo({ type: 'RateLimit', message: 'slow down', retryable: true }))
 * @throws {TypeError} when `type` or `message` is not a string, or `retryable` not a boolean.
 */
export class ErrorInfo {
  /** The kind of failure, usually an error class name. */
  readonly type: string
  /** A human-readable description of the failure. */
  readonly message: string
  /** Whether the caller may retry. */
  readonly retryable: boolean

  constructor(init: ErrorInfoInit) {
    checkOptions('ErrorInfo', init, {
      type: ['a string', is.string],
      message: ['a string', is.string],
      retryable: ['a boolean', is.boolean],
    })
    if (init === undefined) throw argumentError('ErrorInfo', 'init', 'an object with type and message', init)
    if (typeof init.type !== 'string') throw argumentError('ErrorInfo', 'type', 'a string', init.type)
    if (typeof init.message !== 'string') throw argumentError('ErrorInfo', 'message', 'a string', init.message)
    this.type = init.type
    this.message = init.message
    this.retryable = init.retryable ?? false
  }

  /** Recognises error infos made by either module copy of this package. */
  static [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the ordinary prototype check; only ErrorInfo itself trusts the brand.
    if (this !== ErrorInfo) return Function.prototype[Symbol.hasInstance].call(this, value)
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[ERROR_INFO] === true
  }

  /** `"type: message"`, as error messages print it. */
  toString(): string {
    return `${this.type}: ${this.message}`
  }
}

Object.defineProperty(ErrorInfo.prototype, ERROR_INFO, { value: true })
