// Vitest 5 only: make sure this program really sees Vitest 5 (its `Matchers` has two type
// parameters), and that `.resolves` and the asymmetric form take our matchers.
import { expect, type Matchers } from 'vitest'
import 'agent-doubles/vitest'
import type { Envelope } from 'agent-doubles'

type IsVitest5 = Matchers<void, unknown> extends { toHaveText(text: string): void } ? true : false
export const seesVitest5: IsVitest5 = true

declare const pending: Promise<Envelope>
export async function resolvesCompiles(): Promise<void> {
  await expect(pending).resolves.toHaveText('sunny')
  expect({ a: 'x' }).toEqual({ a: expect.toHaveText('x') })
  // @ts-expect-error a task is a string
  await expect(pending).resolves.toHaveText(1)
}
