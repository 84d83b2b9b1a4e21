/**
 * What `FakeProxy` reads and resets of its WebSocket sessions — `proxy.sessions`,
 * `proxy.realtime`, closing a lane's sessions — without loading the server or `ws`, so the
 * proxy still loads where only `proxy.fetch` can run.
 * @module
 */
import { argumentError } from '../../internal/describe.js'
import { existingSessionBook, sessionBookOf, type WebSocketSession } from './session-book.js'

/** The sessions of `states` (a lane's own, or a proxy's and its lanes'), as copies. */
export function sessionsOf(states: readonly object[]): WebSocketSession[] {
  const all: WebSocketSession[] = []
  for (const state of states) for (const session of sessionBookOf(state).records) all.push(structuredClone(session))
  return all
}

/**
 * `proxy.realtime`: what a test tells the realtime transports about the audio its client sends.
 * @example
 * proxy.realtime.hear('what is the weather in Paris')
 */
export interface ProxyRealtime {
  /**
   * The transcript of the next input audio turn (OpenAI Realtime's committed input audio buffer,
   * Gemini Live's audio turn): the fake cannot hear, so the test says what was said, and scripts
   * match it as they match text (`scriptedLLM({ weather: … })`). Called several times, the
   * transcripts go to the next turns in order; a turn with none planned is heard as `''`.
   * @throws {TypeError} `text` is not a string.
   */
  hear(text: string): ProxyRealtime
}

/** The `proxy.realtime` of `state`. */
export function realtimeOf(state: object, owner: string): ProxyRealtime {
  const book = sessionBookOf(state)
  const realtime: ProxyRealtime = {
    hear(text: string) {
      if (typeof text !== 'string') throw argumentError(`${owner} realtime.hear()`, 'text', 'a string (the transcript of the next input audio turn)', text)
      book.heard.push(text)
      return realtime
    },
  }
  return realtime
}

/** Forgets `state`'s session records and planned transcripts (its `reset()`). */
export function resetSessions(state: object): void {
  existingSessionBook(state)?.reset()
}

/** Closes `state`'s open sessions (its lane or proxy is closing). */
export function closeSessions(state: object): void {
  existingSessionBook(state)?.closeAll()
}

