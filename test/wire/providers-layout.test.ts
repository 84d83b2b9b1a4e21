// SPEC §21: each provider's folder declares everything about it; the route table, the network
// guard's hosts and fakeProxy.env are derived from the one list in src/wire/dialects.ts. These
// tests fail when a provider is named again somewhere outside its folder.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, test } from 'vitest'
import { providerHosts, routeProvidersTo } from '../../src/guard/provider-hosts.js'
import { clientEnv } from '../../src/server/client-env.js'
import { findRoute, providerForUnknownPath, providers } from '../../src/wire/dialects.js'

const SRC = join(import.meta.dirname, '../../src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') ? [relative(SRC, path)] : []
  })
}

/** The files outside `src/wire/<folder>/` that import a module of that folder. */
function importersOf(folder: string): string[] {
  const own = `wire/${folder}/`
  return sourceFiles(SRC)
    .filter((file) => !file.startsWith(own))
    .filter((file) => {
      const text = readFileSync(join(SRC, file), 'utf8')
      for (const match of text.matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)) {
        const target = relative(SRC, join(SRC, file, '..', match[1]))
        if (target.startsWith(own)) return true
      }
      return false
    })
}

describe('the list of dialects is the only place a provider is named outside its folder', () => {
  test('the guard refuses exactly the hosts the providers declare, in the list order', () => {
    expect(providerHosts).toEqual(providers.flatMap((provider) => provider.hosts.map((api) => api.host)))
    expect(providerHosts).toContain('bedrock-runtime.*.amazonaws.com')
    expect(providerHosts).toContain('aiplatform.googleapis.com')
    // Routing maps a declared host onto the fake, path kept.
    const route = routeProvidersTo('http://127.0.0.1:9')
    expect(route(new URL('https://europe-west4-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/google/models/m:generateContent'))).toBe(
      'http://127.0.0.1:9/v1/projects/p/locations/l/publishers/google/models/m:generateContent',
    )
  })

  test('fakeProxy.env is the union of what each provider declares for its clients', () => {
    const env = clientEnv('http://127.0.0.1:9')
    const declared = Object.assign({}, ...providers.map((provider) => provider.env?.('http://127.0.0.1:9') ?? {}))
    expect(env).toEqual(declared)
    expect(env).toMatchObject({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OLLAMA_HOST: 'http://127.0.0.1:9', AWS_ENDPOINT_URL_BEDROCK_RUNTIME: 'http://127.0.0.1:9' })
  })

  test("every fixed route's dialect is one its provider declares, and unknown paths find their provider's shape", () => {
    for (const provider of providers) {
      for (const [path, route] of Object.entries(provider.routes ?? {})) {
        expect(provider.dialects, `${provider.name} ${path}`).toContain(route.dialect)
        expect(findRoute(path)).toBe(route)
      }
    }
    expect(providerForUnknownPath('/api/nope')?.id).toBe('ollama-chat')
    expect(providerForUnknownPath('/model/x/nope')?.id).toBe('bedrock-converse')
    expect(providerForUnknownPath('/v1/projects/p/nope')?.id).toBe('gemini-generate')
    expect(providerForUnknownPath('/v2/nope')).toBeUndefined()
  })

  test('the newer providers (Ollama, Azure, Vertex) are imported by dialects.ts alone; the others only where a shared transport needs them', () => {
    // The figure of issue 26: files outside its folder a provider touches. dialects.ts names each
    // provider on one import line and one entry of `providers`.
    expect(importersOf('ollama')).toEqual(['wire/dialects.ts'])
    expect(importersOf('azure')).toEqual(['wire/dialects.ts'])
    expect(importersOf('vertex')).toEqual(['wire/dialects.ts'])
    // Bedrock's binary event stream is a framing the server writes (StreamFraming 'eventstream').
    expect(importersOf('bedrock').sort()).toEqual(['server/framing.ts', 'wire/dialects.ts'])
    // Vertex serves Gemini models; the Live API is a WebSocket transport of the server (its session,
    // turn faults, and the refusal of an unknown Live path in Google's shape).
    expect(importersOf('gemini').sort()).toEqual(['server/websocket/live-session.ts', 'server/websocket/turn-faults.ts', 'server/websocket/upgrade.ts', 'wire/dialects.ts', 'wire/openai-models/codec.ts', 'wire/vertex/index.ts'])
    const list = readFileSync(join(SRC, 'wire/dialects.ts'), 'utf8')
    for (const folder of ['ollama', 'azure', 'vertex', 'bedrock', 'gemini']) {
      expect(list.split('\n').filter((line) => line.includes(`./${folder}/`)), folder).toHaveLength(1)
    }
  })

  test('no server file keeps a list of dialect names: side requests read `modelTraffic` from the dialects', () => {
    for (const file of sourceFiles(SRC).filter((path) => path.startsWith('server/'))) {
      const text = readFileSync(join(SRC, file), 'utf8')
      expect(text, file).not.toMatch(/'(ollama|bedrock|azure|vertex)-[a-z-]+'/)
    }
  })
})
