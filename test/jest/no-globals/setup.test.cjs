// With injectGlobals: false the setup entry still registers matchers and resets between tests.
const { expect, test, describe } = require('@jest/globals')
const { mockAgent } = require('agent-doubles')
const { useFakeProxy } = require('agent-doubles/jest')

const researcher = mockAgent({ '*': 'ok' }, { name: 'researcher' })

describe('injectGlobals: false', () => {
  const proxy = useFakeProxy()

  test('no global expect, yet the matchers are registered', async () => {
    expect(globalThis.expect).toBeUndefined()
    await researcher('weather today')
    expect(researcher).toHaveBeenCalledWithTask('weather today')
    const response = await fetch(`${proxy.url}/v1/models`)
    expect(response.ok).toBe(true)
  })

  test('the setup reset the module-scope double', () => {
    expect(researcher.calls).toEqual([])
    expect(researcher).not.toHaveBeenCalledWithTask('weather today')
  })
})
