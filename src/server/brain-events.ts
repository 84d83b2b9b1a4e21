/**
 * A brain's stream as a dialect's encoder takes it, made in one pass: tool-call ids in the
 * dialect's format, exactly one `finish` at the end, and the final response noted on the record.
 * A step per event rather than a generator, so a stream whose events are all known is encoded
 * without a promise per event.
 * @module
 */
import type { StreamEvent } from '../llm/types.js'
import { Accumulated, asModelResponse, finishOf, type StreamEncoder } from '../wire/dialect.js'
import { renameToolCallEvent } from '../wire/tool-call-ids.js'
import type { FakeRequest } from './types.js'

/** What {@link BrainEvents} does to the events besides passing them on. */
export interface BrainEventsOptions {
  /** The requested model, for a finish the brain did not send. */
  model: string
  /** Gives a tool-call id the dialect's format. */
  rename: (id: string) => string
  /** Where the final response is noted. */
  record: FakeRequest
  /**
   * Whether the brain's events are sure to end with its `finish` (a stream read at once): then
   * nothing streamed needs keeping to build one, which spares a long stream a list of its texts.
   */
  endsWithFinish?: boolean
}

/** Passes a brain's events to `encode`, renamed, cut after the first `finish`. */
export class BrainEvents {
  readonly #encode: StreamEncoder
  readonly #options: BrainEventsOptions
  /** What was streamed, kept only for a brain that may stop without a finish. */
  readonly #said: Accumulated | undefined
  #finished = false

  constructor(encode: StreamEncoder, options: BrainEventsOptions) {
    this.#encode = encode
    this.#options = options
    this.#said = options.endsWithFinish ? undefined : new Accumulated()
  }

  /** Passes `event` on; `false` once the stream is over (a `finish` passed), when the brain need not be read further. */
  pass(event: StreamEvent): boolean {
    if (this.#finished) return false
    if (event.type === 'finish') {
      this.#finish(event)
      return false
    }
    this.#said?.add(event)
    this.#encode(renameToolCallEvent(event, this.#options.rename))
    return true
  }

  /** Ends a stream whose brain stopped without a `finish`, with one built from what was streamed. */
  end(): void {
    if (!this.#finished) this.#finish(finishOf(this.#said ?? new Accumulated(), this.#options.model))
  }

  #finish(finish: StreamEvent): void {
    this.#finished = true
    const renamed = renameToolCallEvent(finish, this.#options.rename)
    if (renamed.type === 'finish') this.#options.record.response = asModelResponse(renamed.response)
    this.#encode(renamed)
  }
}
