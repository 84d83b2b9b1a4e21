// Failure context: when a test that used the fakeProxy fixture fails, the conversation its lane
// saw (masked, last 20 turns) is attached to it as Vitest annotations, which the default
// reporter prints under the failure and the JUnit and HTML reporters carry, and in its meta, which
// the JSON reporter writes; a passing test gets none. (scripts/check-html-report.mjs opens the
// HTML report in a browser.)
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { parse } from 'flatted'
import { afterAll, expect, test } from 'vitest'
import { describeRun, fromRoot, node20, node24, repoRoot, runChild, testCounts, vitest4Bin, vitest5Bin } from '../e2e/helpers.js'

const dir = mkdtempSync(join(repoRoot, 'test/authoring/.stability-failure-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const spec = `
import OpenAI from 'openai'
import { expect } from 'vitest'
import { test } from ${JSON.stringify(fromRoot('fixtures/vitest.ts'))}
import { toolCall } from ${JSON.stringify(fromRoot('src/index.ts'))}

const run = async (url) => {
  const client = new OpenAI({ apiKey: 'k', baseURL: url + '/v1', maxRetries: 0 })
  const messages = [{ role: 'system', content: 'You book trips on ' + new Date().toISOString() }, { role: 'user', content: 'Book Paris' }]
  const first = await client.chat.completions.create({ model: 'gpt-5', messages, tools: [{ type: 'function', function: { name: 'book', parameters: { type: 'object' } } }] })
  const call = first.choices[0].message.tool_calls[0]
  messages.push(first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'booked' })
  return (await client.chat.completions.create({ model: 'gpt-5', messages })).choices[0].message.content
}

test('fails after two model calls', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM([toolCall('book', { city: 'Paris' }), 'Booked Paris.']))
  expect(await run(fakeProxy.url)).toBe('Booked Rome.')
})

test('passes quietly', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM([toolCall('book', { city: 'Oslo' }), 'Booked Oslo.']))
  expect(await run(fakeProxy.url)).toBe('Booked Oslo.')
})

// Two tests that fail at once, each after its own call: each gets its own conversation.
let asked = 0
let release
const bothAsked = new Promise((resolve) => (release = resolve))
for (const city of ['Oslo', 'Rome']) {
  test.concurrent('fails at once in ' + city, async ({ fakeProxy, scriptedLLM }) => {
    fakeProxy.use(scriptedLLM(['Booked ' + city + '.']))
    const client = new OpenAI({ apiKey: 'k', baseURL: fakeProxy.url + '/v1', maxRetries: 0 })
    await client.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'Book ' + city }] })
    if (++asked === 2) release()
    await bothAsked
    expect(city).toBe('Lima')
  })
}
`

// The conversation as rendered: each turn's header, then its lines.
const rendered = [
  ['#1 POST /v1/chat/completions · openai-chat · model "gpt-5"', '  system: You book trips on <date>', '  tools offered: book', '    book · parameters {"type":"object"}', '  user: Book Paris', '  reply: book({"city":"Paris"})'],
  ['#2 POST /v1/chat/completions · openai-chat · model "gpt-5"', '  tool book: booked', '  reply: Booked Paris.'],
]
// As annotations: one per turn, its lines indented to sit under the default reporter's `↳ `.
const turns = rendered.map(([header, ...lines]) => [header, ...lines.map((line) => `   ${line}`)].join('\n'))
// In the test's meta: the whole conversation.
const whole = rendered.flat().join('\n')
// The concurrent tests' one turn each.
const alone = (city: string) => [`#1 POST /v1/chat/completions · openai-chat · model "gpt-5"`, `  user: Book ${city}`, `  reply: Booked ${city}.`]
const concurrent = ['Oslo', 'Rome'].map((city) => ({
  name: `fails at once in ${city}`,
  annotation: alone(city).map((line, i) => (i ? `   ${line}` : line)).join('\n'),
  meta: alone(city).join('\n'),
}))

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

const runners = [
  { name: 'Vitest 4', node: async () => node20, bin: vitest4Bin, html: true },
  { name: 'Vitest 5', node: node24, bin: vitest5Bin, html: false },
]

test.each(runners)('$name: a failing test carries the conversation its lane saw as annotations, one per turn, and in its meta; a passing one neither; concurrent failures each their own', async ({ name, node, bin, html }) => {
  const run = join(dir, name.replace(' ', ''))
  rmSync(run, { recursive: true, force: true })
  writeFileSync(join(dir, 'trip.spec.ts'), spec)
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.spec.ts'] } }\n`)
  // @vitest/ui (the HTML reporter) is installed for Vitest 4 only.
  const reporters = ['--reporter=default', '--reporter=junit', `--outputFile.junit=${join(run, 'junit.xml')}`, '--reporter=json', `--outputFile.json=${join(run, 'report.json')}`]
  if (html) reporters.push('--reporter=html', `--outputFile.html=${join(run, 'html/index.html')}`)
  const result = await runChild(await node(), [bin, 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs'), ...reporters], { timeoutMs: 60_000 })
  expect(result.code, describeRun(result)).toBe(1)
  expect(testCounts(result.output)).toEqual({ passed: 1, failed: 3 })

  // The default reporter prints the annotation under the failure, labelled with its type.
  expect(result.output, describeRun(result)).toContain(`agent-doubles: conversation\n${turns.map((turn) => `   ↳ ${turn}`).join('\n')}\n`)
  // Printed once, as the annotation: the stderr fallback stays silent.
  expect(result.output).not.toContain('[agent-doubles] the conversation fakeProxy saw')

  // Each test's annotations, as the JUnit reporter writes them (properties of its test case).
  const junit = readFileSync(join(run, 'junit.xml'), 'utf8')
  const properties = Object.fromEntries(
    junit
      .split('<testcase ')
      .slice(1)
      .map((testCase) => [/\sname="([^"]*)"/.exec(testCase)![1], [...testCase.matchAll(/<property name="([^"]*)" value="([^"]*)">/g)].map(([, name, value]) => [name, value])]),
  )
  const asJunit = (messages: string[]) => messages.map((message) => ['agent-doubles: conversation', escapeXml(message)])
  expect(properties).toEqual({
    'fails after two model calls': asJunit(turns),
    'passes quietly': [],
    ...Object.fromEntries(concurrent.map(({ name, annotation }) => [name, asJunit([annotation])])),
  })

  // The JSON reporter has no annotations; it writes the test's meta, which holds the whole conversation.
  const json = JSON.parse(readFileSync(join(run, 'report.json'), 'utf8')) as { testResults: Array<{ assertionResults: Array<{ title: string; meta: object }> }> }
  expect(Object.fromEntries(json.testResults[0]!.assertionResults.map(({ title, meta }) => [title, meta]))).toEqual({
    'fails after two model calls': { agentDoublesConversation: whole },
    'passes quietly': {},
    ...Object.fromEntries(concurrent.map(({ name, meta }) => [name, { agentDoublesConversation: meta }])),
  })

  if (html) {
    // The data the HTML report (and Vitest UI) renders: the test tasks with their annotations.
    const report = parse(gunzipSync(readFileSync(join(run, 'html/html.meta.json.gz'))).toString('utf8')) as { files: Array<{ tasks: Array<{ name: string; annotations: unknown[]; meta: object }> }> }
    const shown = Object.fromEntries(report.files[0]!.tasks.map(({ name, annotations, meta }) => [name, { annotations, meta }]))
    const asAnnotations = (messages: string[]) => messages.map((message) => ({ type: 'agent-doubles: conversation', message }))
    expect(shown).toEqual({
      'fails after two model calls': { annotations: asAnnotations(turns), meta: { agentDoublesConversation: whole } },
      'passes quietly': { annotations: [], meta: {} },
      ...Object.fromEntries(concurrent.map(({ name, annotation, meta }) => [name, { annotations: asAnnotations([annotation]), meta: { agentDoublesConversation: meta } }])),
    })
  }
}, 90_000)
