// The setup entry, imported as a setupFiles entry would be: the guard is on from load, so a
// client this file builds at module level is guarded too.
import { netAtLoad } from './net-at-load.js'
import '../../fixtures/vitest-setup.js'
import { createServer } from 'node:http'
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { isNetworkGuardInstalled } from '../../src/guard/network-guard.js'
import { REAL_MODEL_CALL } from '../../src/guard/real-model-call.js'
import { useDefaultBaseUrls } from './helpers.js'

const restoreEnv = useDefaultBaseUrls()
const moduleLevelClient = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 })
restoreEnv()

const server = createServer((_req, res) => res.end('local'))
let localUrl = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  localUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

test('the guard is on from the moment the setup entry loads', () => {
  expect(isNetworkGuardInstalled()).toBe(true)
})

test('a client built at module level fails with the guard error', async () => {
  expect(moduleLevelClient.baseURL).toBe('https://api.openai.com/v1')
  await expect(moduleLevelClient.models.list()).rejects.toMatchObject({
    cause: { cause: { code: REAL_MODEL_CALL, message: expect.stringContaining('A real model was called: GET https://api.openai.com/v1/models') } },
  })
  expect(netAtLoad.calls).toEqual([])
})

test('loopback traffic passes untouched', async () => {
  const res = await fetch(localUrl)
  expect(await res.text()).toBe('local')
  expect(netAtLoad.calls).toEqual([`GET ${localUrl}/`])
})
