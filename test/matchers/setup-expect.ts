import { expect } from 'vitest'
import { installMatchers } from '../../matchers/index.js'
import type { AgentDoublesMatchers } from '../../matchers/types.js'

installMatchers(expect)

declare module 'vitest' {
  interface Matchers extends AgentDoublesMatchers<void> {}
  interface AsymmetricMatchersContaining extends AgentDoublesMatchers<void> {}
}

/** The message a failing assertion throws, for checking what it shows. */
export function failureOf(assertion: () => unknown): string {
  try {
    assertion()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected the assertion to fail')
}

/** Removes colour codes, so messages can be read as text. */
export function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '')
}
