/**
 * A brain's stream as a dialect's encoder reads it, made in one pass: tool-call ids in the
 * dialect's format, exactly one `finish` at the end, and the final response noted on the record.
 * One generator for all three, rather than one each, since every step of a generator costs
 * every event of every stream a few promises.
 * @module
 */
import type { StreamEvent } from '../llm/types.js'
import { Accumulated, asModelResponse, finishOf } from './dialect.js'
import { renameToolCallEvent } from './tool-call-ids.js'
import type { FakeRequest } from './types.js'

/** What {@link brainEvents} does to the events besides passing them on. */
export interface BrainEventsOptions {
  /** The requested model, for a finish the brain did not send. */
  model: string
  /** Gives a tool-call id the dialect's format. */
  rename: (id: string) => string
  /** Where the final response is noted. */
  record: FakeRequest
}

/**
 * The events of a brain's stream whose first step is `first` and the rest `rest`: renamed, cut
 * after the first `finish` (or ended with one built from what was streamed), the final response
 * noted on `options.record`. Ending early (the client left) ends `rest` too, so the brain stops.
 */
export async function* brainEvents(
  first: Promise<IteratorResult<StreamEvent>>,
  rest: AsyncIterator<StreamEvent> | undefined,
  options: BrainEventsOptions,
): AsyncGenerator<StreamEvent> {
  const { rename, record } = options
  const said = new Accumulated()
  const finished = (finish: StreamEvent): StreamEvent => {
    const renamed = renameToolCallEvent(finish, rename)
    if (renamed.type === 'finish') record.response = asModelResponse(renamed.response)
    return renamed
  }
  try {
    for (let step = await first; !step.done; step = await rest!.next()) {
      const event = step.value
      if (event.type === 'finish') {
        yield finished(event)
        return
      }
      said.add(event)
      yield renameToolCallEvent(event, rename)
    }
    yield finished(finishOf(said, options.model))
  } finally {
    await rest?.return?.()
  }
}
