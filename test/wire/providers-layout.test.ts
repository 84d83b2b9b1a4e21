// SPEC §21: each provider's folder declares everything about it; the route table, the network
// guard's hosts, fakeProxy.env and the `Dialect` union are derived from the one list,
// src/wire/providers.ts (one line a provider). These tests fail when a provider is named again
// somewhere outside its folder, or when two providers claim one path (the list's order decides
// nothing, so they must not).
import { execFileSync } from 'node:child_process'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, expectTypeOf, test } from 'vitest'
import type { Dialect as PublicDialect } from '../../src/index.js'
import { providerHosts, routeProvidersTo } from '../../src/guard/provider-hosts.js'
import { clientEnv } from '../../src/server/client-env.js'
import { everyRoute, findRoute, providerForUnknownPath, providers, type Dialect } from '../../src/wire/dialects.js'

const SRC = join(import.meta.dirname, '../../src')
/** The names `Dialect` had when src/wire/names.ts listed them by hand. */
const EVERY_DIALECT = [
  'openai-chat',
  'openai-responses',
  'anthropic-messages',
  'anthropic-count-tokens',
  'openai-embeddings',
  'openai-models',
  'gemini-generate',
  'gemini-count-tokens',
  'gemini-embed',
  'gemini-models',
  'ollama-chat',
  'ollama-generate',
  'ollama-embed',
  'ollama-tags',
  'bedrock-converse',
  'bedrock-invoke',
  'bedrock-embed',
  'bedrock-count-tokens',
  'openai-realtime',
  'gemini-live',
] as const
const ROOT = join(import.meta.dirname, '../..')

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
    // No variable is set by two providers, so the list's order cannot change the environment.
    const names = providers.flatMap((provider) => Object.keys(provider.env?.('http://127.0.0.1:9') ?? {}))
    expect(names.filter((name, at) => names.indexOf(name) !== at)).toEqual([])
    const hosts = providers.flatMap((provider) => provider.hosts.map((api) => api.host))
    expect(hosts.filter((host, at) => hosts.indexOf(host) !== at)).toEqual([])
  })

  test('no path is claimed by two providers, so the order of the list decides no route', () => {
    const claims = (path: string) =>
      providers.filter((provider) => provider.routes?.[path] !== undefined || (provider.patterns ?? []).some((pattern) => pattern.path.test(path))).map((provider) => provider.name)
    const paths = everyRoute().map((route) => route.path)
    expect(paths.length).toBeGreaterThanOrEqual(40)
    for (const path of paths) expect(claims(path), path).toHaveLength(1)
    // The error shape of an unknown path under a provider's prefix is one provider's too.
    for (const path of paths.flatMap((path) => [`${path}/nope`, path.replace(/[^/]+$/, 'nope')])) {
      const shapes = providers.filter((provider) => provider.unknownPath?.(path) !== undefined)
      expect(shapes.length, path).toBeLessThanOrEqual(1)
    }
  })

  test('each provider declares the names of its dialects, and the Dialect union is made of them', () => {
    const declared = providers.flatMap((provider) => provider.dialectNames)
    expect(declared.filter((name, at) => declared.indexOf(name) !== at), 'a name declared twice').toEqual([])
    for (const provider of providers) {
      for (const dialect of provider.dialects) expect(declared, `${provider.name}: ${dialect.id}`).toContain(dialect.id)
    }
    expect(new Set(declared)).toEqual(new Set(EVERY_DIALECT))
    // The package's public type is the same union it was when names.ts listed it by hand.
    expectTypeOf<Dialect>().toEqualTypeOf<(typeof EVERY_DIALECT)[number]>()
    expectTypeOf<PublicDialect>().toEqualTypeOf<(typeof EVERY_DIALECT)[number]>()
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

  test('the newer providers (Ollama, Azure, Vertex) are imported by the list alone; the others only where a shared transport needs them', () => {
    // The figure of issue 26: files outside its folder a provider touches. providers.ts names each
    // provider on one line, and nothing else in src/ does for the newer ones.
    expect(importersOf('ollama')).toEqual(['wire/providers.ts'])
    expect(importersOf('azure')).toEqual(['wire/providers.ts'])
    expect(importersOf('vertex')).toEqual(['wire/providers.ts'])
    // Bedrock's binary event stream is a framing the server writes (StreamFraming 'eventstream').
    expect(importersOf('bedrock').sort()).toEqual(['server/framing.ts', 'wire/providers.ts'])
    // Vertex serves Gemini models; the Live API is a WebSocket transport of the server (its session,
    // turn faults, and the refusal of an unknown Live path in Google's shape).
    expect(importersOf('gemini').sort()).toEqual(['server/websocket/live-session.ts', 'server/websocket/turn-faults.ts', 'server/websocket/upgrade.ts', 'wire/openai-models/codec.ts', 'wire/providers.ts', 'wire/vertex/index.ts'])
    const list = readFileSync(join(SRC, 'wire/providers.ts'), 'utf8')
    const entries = list.split('\n').filter((line) => line.startsWith('export '))
    expect(entries).toHaveLength(providers.length)
    for (const folder of ['anthropic-messages', 'azure', 'bedrock', 'gemini', 'ollama', 'openai', 'vertex']) {
      expect(entries.filter((line) => line.includes(`./${folder}/`)), folder).toHaveLength(1)
    }
    // dialects.ts reads the list as a whole; it names no provider.
    expect(readFileSync(join(SRC, 'wire/dialects.ts'), 'utf8')).not.toMatch(/from '\.\/[a-z-]+\//)
  })

  test('outside its folders and the list, a provider is named only where a shared transport or record mode serves it', () => {
    // scripts/count-provider-touchpoints.mjs is the figure's count: files outside a provider's
    // folders that import them or name one of its dialect names. Each entry below is a reason.
    const rows = JSON.parse(execFileSync(process.execPath, ['scripts/count-provider-touchpoints.mjs', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })) as {
      provider: string
      touched: { file: string; lines?: number }[]
    }[]
    const touched = Object.fromEntries(rows.map((row) => [row.provider, row.touched.map((touch) => touch.file).filter((file) => file !== 'wire/providers.ts')]))
    for (const row of rows) expect(row.touched.find((touch) => touch.file === 'wire/providers.ts')?.lines, row.provider).toBe(1)
    expect(touched.ollama).toEqual([])
    expect(touched.azure).toEqual([])
    expect(touched.vertex).toEqual([])
    expect(touched.bedrock).toEqual(['server/framing.ts'])
    // Gemini: the Live API's WebSocket sessions, Gemini CLI's side requests, Vertex's Gemini models.
    expect(touched.gemini.every((file) => file.startsWith('server/websocket/') || ['server/side-requests.ts', 'wire/openai-models/codec.ts', 'wire/vertex/index.ts'].includes(file)), touched.gemini.join()).toBe(true)
    // OpenAI and Anthropic: record mode's upstreams, the WebSocket sessions, their request ids.
    for (const name of ['openai', 'anthropic']) {
      const allowed = /^(server\/websocket\/|upstream\/|server\/(handle-request|prompt-usage|turned-away|lanes|server-errors|side-requests)\.ts$|gateway\/agent-binding\.ts$|wire\/(azure|bedrock|vertex)\/|wire\/params\.ts$)/
      expect(touched[name].filter((file) => !allowed.test(file)), name).toEqual([])
    }
  })

  test('no server file keeps a list of dialect names: side requests read `modelTraffic` from the dialects', () => {
    for (const file of sourceFiles(SRC).filter((path) => path.startsWith('server/'))) {
      const text = readFileSync(join(SRC, file), 'utf8')
      expect(text, file).not.toMatch(/'(ollama|bedrock|azure|vertex)-[a-z-]+'/)
    }
  })
})
