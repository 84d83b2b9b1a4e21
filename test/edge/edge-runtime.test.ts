/**
 * `proxy.fetch` in an edge runtime (SPEC §16): test/edge/driver.ts, bundled for the platform with
 * the real openai and Anthropic SDKs, runs in `@edge-runtime/vm` — the Vercel Edge runtime's
 * globals, without `Buffer`, `require` or Node's `process` — and this test reads what it got and runs
 * the proxy's matchers on the proxy it made there.
 */
import { EdgeVM } from '@edge-runtime/vm'
import { build } from 'esbuild'
import { beforeAll, describe, expect, test } from 'vitest'
import type { FakeProxy } from '../../src/in-process.js'
import '../matchers/setup-expect.js'

interface Driven {
  proxy: FakeProxy
  toolCalled: string[] | undefined
  streamedText: string
  chunks: number
  anthropicText: string
  anthropicStreamed: string
  startError: string
}

let edge: EdgeVM
let driven: Driven

beforeAll(async () => {
  const bundle = await build({
    entryPoints: ['test/edge/driver.ts'],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'edgeDriver',
    platform: 'browser',
    // Loaded by what the edge cannot do (start(), record mode, files), only when called: left
    // as dynamic imports, which fail there as they would in a real edge runtime.
    external: ['node:*', 'undici', './server.js'],
    logLevel: 'silent',
  })
  // Edge runtimes give a `process` holding `env` only (Next.js's edge sandbox does; the openai
  // SDK reads `process.version` there); nothing of Node's is in it.
  edge = new EdgeVM({ extend: (context) => Object.assign(context, { process: { env: {} } }) })
  edge.evaluate(bundle.outputFiles[0].text)
  driven = await edge.evaluate<Promise<Driven>>('edgeDriver.drive()')
}, 60_000)

describe('in an edge runtime', () => {
  test('the runtime has none of Node', () => {
    const globals = '[typeof Buffer, typeof require, typeof setImmediate, typeof process.nextTick, typeof process.getBuiltinModule, typeof EdgeRuntime]'
    expect(edge.evaluate(globals)).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'string'])
  })

  test('the openai SDK gets JSON and a stream', () => {
    expect(driven.toolCalled).toEqual(['get_weather'])
    expect(driven.streamedText).toBe('Sunny in Paris.')
    expect(driven.chunks).toBeGreaterThan(2)
  })

  test('the Anthropic SDK gets JSON and a stream', () => {
    expect(driven.anthropicText).toBe('hi there')
    expect(driven.anthropicStreamed).toBe('hi again')
  })

  test('the proxy it made there records, and its matchers read it', () => {
    expect(driven.proxy).toHaveReceivedRequests(4)
    expect(driven.proxy).toHaveRequestedTool('get_weather', { city: 'Paris' })
    expect(driven.proxy).toHaveReceivedRequest({ dialect: 'anthropic-messages', stream: true })
    expect(driven.proxy.requests.map((r) => [r.dialect, r.stream])).toEqual([
      ['openai-chat', false],
      ['openai-chat', true],
      ['anthropic-messages', false],
      ['anthropic-messages', true],
    ])
  })

  test('start() says the runtime cannot serve HTTP and points to proxy.fetch', () => {
    expect(driven.startError).toMatch(/start\(\) needs Node's node:http.*proxy\.fetch/)
  })
})
