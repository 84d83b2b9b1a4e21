/**
 * Speech as the realtime APIs carry it (OpenAI Realtime, Gemini Live) and as the fake makes and
 * reads it: 24 kHz mono PCM16, little-endian, base64 on the wire. Spoken output is deterministic and its length follows the scripted
 * text (10 ms per character), so a test can assert on it; input audio is read only for
 * loudness, which is how the fake's voice activity detection tells speech from silence.
 * @module
 */

/** Samples per second of `audio/pcm`, the only rate the Realtime API speaks. */
export const SAMPLE_RATE = 24_000

/** Bytes of speech per character of text: 10 ms of 24 kHz PCM16 (240 samples). */
export const BYTES_PER_CHARACTER = 480

/** A sample whose magnitude is at most this is silence to the fake's VAD. */
export const SILENCE_LEVEL = 64

/**
 * The speech of `text`: {@link BYTES_PER_CHARACTER} bytes of PCM16 per UTF-16 unit, a tone whose
 * pitch follows each character's code, so the same text always sounds the same.
 * @example
 * speechFor('Hi').length // 960
 */
export function speechFor(text: string): Buffer {
  const audio = Buffer.allocUnsafe(text.length * BYTES_PER_CHARACTER)
  for (let at = 0; at < text.length; at++) tones[text.charCodeAt(at) % TONES]!.copy(audio, at * BYTES_PER_CHARACTER)
  return audio
}

/** Distinct tones: a character's code picks one (modulo), so speech is made by copying, not computing. */
const TONES = 32

/**
 * The 10 ms tone of each pitch: a sawtooth between -4000 and +4000 with a period of 8–39 samples,
 * loud enough never to be taken for silence.
 */
const tones: readonly Buffer[] = Array.from({ length: TONES }, (_, tone) => {
  const period = 8 + tone
  const chunk = Buffer.allocUnsafe(BYTES_PER_CHARACTER)
  for (let n = 0; n < BYTES_PER_CHARACTER / 2; n++) chunk.writeInt16LE(Math.round(((n % period) / period) * 8000 - 4000) || 1, n * 2)
  return chunk
})

/** Milliseconds of audio in `bytes` bytes of 24 kHz PCM16. */
export function durationMs(bytes: number): number {
  return Math.floor(bytes / ((SAMPLE_RATE * 2) / 1000))
}

/** Whether every sample of `pcm` is at most {@link SILENCE_LEVEL} (an empty chunk is silence too). */
export function isSilence(pcm: Uint8Array): boolean {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength - (pcm.byteLength % 2))
  for (let at = 0; at < view.byteLength; at += 2) {
    const sample = view.getInt16(at, true)
    if (sample > SILENCE_LEVEL || sample < -SILENCE_LEVEL) return false
  }
  return true
}
