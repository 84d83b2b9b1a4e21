/**
 * The bytes of JSON's syntax, for the scanners that walk a body before (or instead of) `JSON.parse`.
 * @module
 */
export const OPEN_OBJECT = 0x7b
export const OPEN_ARRAY = 0x5b
export const CLOSE_OBJECT = 0x7d
export const CLOSE_ARRAY = 0x5d
export const QUOTE = 0x22
export const BACKSLASH = 0x5c
export const COMMA = 0x2c
export const COLON = 0x3a
export const SPACE = 0x20
export const TAB = 0x09
export const LF = 0x0a
export const CR = 0x0d
export const U = 0x75
