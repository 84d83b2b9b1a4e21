/**
 * Tool calls not yet answered, while a decoder walks a conversation whose results name their
 * call by id or only by tool name (Gemini, Ollama). Looked up in maps, not searched: matching
 * 50k results to 50k calls by scanning a list once took seconds (SPEC §24).
 * @module
 */

/** One call waiting for its result. */
export interface OpenCall {
  readonly id: string
  readonly name: string
  /** Set once a result took it, so the other index skips it. */
  taken?: boolean
}

/** A queue per key, read from `head` on, so taking the first is O(1) amortised. */
interface Queue {
  calls: OpenCall[]
  head: number
}

/** The open calls of one request, oldest first for each id and each name. */
export class OpenCalls {
  readonly #byId = new Map<string, Queue>()
  readonly #byName = new Map<string, Queue>()

  /** Notes a call; a result may take it later. */
  push(id: string, name: string): void {
    const call: OpenCall = { id, name }
    enqueue(this.#byId, id, call)
    enqueue(this.#byName, name, call)
  }

  /** Takes the oldest open call with this id, if any. */
  takeById(id: string): OpenCall | undefined {
    return take(this.#byId, id)
  }

  /** Takes the oldest open call of this tool, if any. */
  takeByName(name: string | undefined): OpenCall | undefined {
    return name === undefined ? undefined : take(this.#byName, name)
  }
}

function enqueue(index: Map<string, Queue>, key: string, call: OpenCall): void {
  const queue = index.get(key)
  if (queue) queue.calls.push(call)
  else index.set(key, { calls: [call], head: 0 })
}

function take(index: Map<string, Queue>, key: string): OpenCall | undefined {
  const queue = index.get(key)
  if (!queue) return undefined
  while (queue.head < queue.calls.length) {
    const call = queue.calls[queue.head++]
    if (call.taken) continue
    call.taken = true
    return call
  }
  return undefined
}
