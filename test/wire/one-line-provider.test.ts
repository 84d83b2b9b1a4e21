/**
 * SPEC §21: "adding a provider is one folder and one line in the list of dialects". Proved on a
 * copy of src/: a toy provider's folder (its dialect and its `defineProvider` declaration) and one
 * line appended to src/wire/providers.ts — no other file of the copy changed — and a child process
 * on that copy finds the toy everywhere the list feeds: the route table and `everyRoute()`, a real
 * FakeProxy answering it and recording its dialect name, the unknown-path error shape, the network
 * guard's hosts and routing, and `fakeProxy.env`. (The child runs through tsx, which does not
 * type-check; that the `Dialect` union is made of the listed providers' names is the type test of
 * providers-layout.test.ts.)
 */
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, expect, test } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const copy = mkdtempSync(join(tmpdir(), 'agent-doubles-toy-provider-'))
afterAll(() => rmSync(copy, { recursive: true, force: true }))

/** The toy's folder: a dialect with its own name and error shape, and the provider declaring it. */
const TOY_FOLDER = {
  'codec.ts': `
import type { ModelDialect } from '../dialect.js'
import { openaiChat } from '../openai-chat/codec.js'
/** Chat Completions' body under another name, with an error shape no other provider has. */
export const toyChat: ModelDialect = { ...openaiChat, id: 'toy-chat', errorAnswer: (status, message) => ({ body: { toy_error: { status, message } } }) }
`,
  'provider.ts': `
import { defineProvider, PLACEHOLDER_KEY } from '../dialect.js'
import { toyChat } from './codec.js'
export const toyProvider = defineProvider({
  name: 'Toy',
  dialectNames: ['toy-chat'],
  dialects: [toyChat],
  patterns: [{ path: /^\\/toy\\/v1\\/([^/]+)\\/chat$/, route: () => ({ method: 'POST', dialect: toyChat }), examples: ['/toy/v1/m/chat'] }],
  unknownPath: (path) => (path.startsWith('/toy/') ? toyChat : undefined),
  hosts: [{ host: 'api.toy.example' }],
  env: (url) => ({ TOY_BASE_URL: url + '/toy/v1', TOY_API_KEY: PLACEHOLDER_KEY }),
})
`,
}
const LINE = "export { toyProvider as toy } from './toy/provider.js'"

/** What the child reports, read from the copy's own modules. */
const CHILD = `
import { FakeProxy } from './src/index.js'
import { everyRoute, findRoute, providerForUnknownPath, type Dialect } from './src/wire/dialects.js'
import { providerHosts, routeProvidersTo } from './src/guard/provider-hosts.js'
const toy = 'toy-chat' as Dialect
const proxy = await new FakeProxy().start()
try {
  const post = (path: string, body: unknown) => fetch(proxy.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const answer = await post('/toy/v1/m/chat', { model: 'm', messages: [{ role: 'user', content: 'hi' }] })
  const unknown = await post('/toy/nope', {})
  const bad = await post('/toy/v1/m/chat', { model: 'm' })
  console.log(JSON.stringify({
    route: findRoute('/toy/v1/m/chat')?.dialect.id,
    everyRoute: everyRoute().filter((route) => route.dialect.id === toy).map((route) => route.path),
    unknownPath: providerForUnknownPath('/toy/nope')?.id,
    answer: { status: answer.status, body: await answer.json() },
    unknown: { status: unknown.status, body: await unknown.json() },
    bad: { status: bad.status, body: await bad.json() },
    recorded: proxy.requests.map((request) => request.dialect),
    hosts: providerHosts.filter((host) => host.includes('toy')),
    routed: routeProvidersTo('http://127.0.0.1:9')(new URL('https://api.toy.example/toy/v1/m/chat')),
    env: Object.fromEntries(Object.entries(proxy.env).filter(([name]) => name.startsWith('TOY_'))),
  }))
} finally {
  await proxy.close()
}
`

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]))
}

test('a toy provider added by its folder and one line of src/wire/providers.ts is served, guarded and routed', () => {
  cpSync(join(ROOT, 'src'), join(copy, 'src'), { recursive: true })
  writeFileSync(join(copy, 'package.json'), readFileSync(join(ROOT, 'package.json')))
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir')
  mkdirSync(join(copy, 'src/wire/toy'))
  for (const [name, text] of Object.entries(TOY_FOLDER)) writeFileSync(join(copy, 'src/wire/toy', name), text)
  const list = join(copy, 'src/wire/providers.ts')
  writeFileSync(list, `${readFileSync(list, 'utf8')}${LINE}\n`)
  writeFileSync(join(copy, 'child.ts'), CHILD)

  // The whole change to the copy: the toy's folder and one line of the list.
  const changed = filesUnder(join(copy, 'src')).filter((file) => {
    const own = join(ROOT, relative(copy, file))
    try {
      return readFileSync(own, 'utf8') !== readFileSync(file, 'utf8')
    } catch {
      return true
    }
  })
  expect(changed.map((file) => relative(copy, file)).sort()).toEqual(['src/wire/providers.ts', 'src/wire/toy/codec.ts', 'src/wire/toy/provider.ts'])
  const before = readFileSync(join(ROOT, 'src/wire/providers.ts'), 'utf8').split('\n')
  const after = readFileSync(list, 'utf8').split('\n')
  expect(after.filter((line) => !before.includes(line))).toEqual([LINE])

  const out = execFileSync(process.execPath, ['--import', 'tsx', 'child.ts'], { cwd: copy, encoding: 'utf8', timeout: 60_000 })
  const seen = JSON.parse(out.trim().split('\n').at(-1)!)
  expect(seen.route).toBe('toy-chat')
  expect(seen.everyRoute).toEqual(['/toy/v1/m/chat'])
  expect(seen.unknownPath).toBe('toy-chat')
  expect(seen.answer.status).toBe(200)
  expect(seen.answer.body).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant' } }] })
  // A path under the toy's prefix that no route serves answers in the toy's own shape.
  expect(seen.unknown).toEqual({ status: 404, body: { toy_error: { status: 404, message: expect.stringMatching(/no route/) } } })
  expect(seen.bad.status).toBe(400)
  expect(seen.recorded).toContain('toy-chat')
  expect(seen.hosts).toEqual(['api.toy.example'])
  expect(seen.routed).toBe('http://127.0.0.1:9/toy/v1/m/chat')
  expect(seen.env).toEqual({ TOY_BASE_URL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/toy\/v1$/), TOY_API_KEY: 'agent-doubles-placeholder-key' })
}, 90_000)
