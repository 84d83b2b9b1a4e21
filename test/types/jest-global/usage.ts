import type {} from 'agent-doubles/jest/globals'
import type { Envelope, FakeProxy, MockAgent } from 'agent-doubles'

declare const env: Envelope
declare const agent: MockAgent
declare const proxy: FakeProxy

export async function matchersCompile(): Promise<void> {
  expect(agent).toHaveBeenCalledWithTask('weather today')
  expect(agent).not.toHaveBeenLastCalledWithTask(expect.stringContaining('market'))
  expect(proxy).toHaveRefusedWith('rate_limited', { times: 2 })
  expect(env).toHaveText('sunny')
  expect(agent).toHaveUsedAtMost({ requests: 2 })
  expect(proxy).toHaveHitPromptCache({ from: 2 })
  expect(proxy).toHaveCalledToolsInOrder(['search'], { mode: 'superset' })
  await expect(Promise.resolve(env)).resolves.toHaveText('sunny')
  expect({ env }).toEqual({ env: expect.toHaveText('sunny') })
  expect({ env }).toEqual({ env: expect.not.toHaveText('rainy') })
}

export function wrongUsageFails(): void {
  // @ts-expect-error a task is a string
  expect(agent).toHaveBeenCalledWithTask(42)
  // @ts-expect-error not a refusal code
  expect(proxy).toHaveRefusedWith('rate-limited')
  // @ts-expect-error no such matcher
  expect(env).toHaveTexts('sunny')
}
