/**
 * The limits of the WebSocket transports (SPEC §11, §18): what one message, one session's send
 * buffer, one session's kept events and one audio buffer may hold.
 * @module
 */

/**
 * The largest message a client may send (16 MiB, above the Realtime API's 15 MiB audio append):
 * a larger one closes the connection with 1009 (message too big), read no further.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024

/**
 * Bytes a session lets pile up for a client that does not read before a streamed answer waits
 * for the socket to drain.
 */
export const HIGH_WATER_BYTES = 256 * 1024

/**
 * Bytes past which a client that never reads is dropped (the connection terminated): each
 * answer already waits at {@link HIGH_WATER_BYTES}, so only a client that keeps asking while it
 * reads nothing gets here.
 */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024

/** Client events kept per session in `proxy.sessions`; later ones are counted, not kept. */
export const MAX_KEPT_EVENTS = 10_000

/** Bytes of input audio one session's buffer holds before `input_audio_buffer.append` is refused. */
export const MAX_AUDIO_BUFFER_BYTES = 64 * 1024 * 1024

/** `response.create` messages a Responses WebSocket queues behind the one being answered. */
export const MAX_QUEUED_RESPONSES = 64
