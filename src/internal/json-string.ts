/**
 * A string's JSON text without its quotes, for encoders that splice a value into a line made
 * once per stream.
 * @module
 */

/**
 * What `JSON.stringify(text)` puts between its quotes: `text` itself when no character in it is
 * escaped (the common case of a streamed delta, which then costs no new string), else the
 * escaped form. Any surrogate takes the slow path, so a lone one is escaped as JSON.stringify
 * escapes it.
 */
export function jsonStringContent(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text).slice(1, -1)
  }
  return text
}
