#!/usr/bin/env node
// Failure context in the HTML report, checked in a real browser (SPEC §14): runs a generated test
// file whose one test fails after talking to fakeProxy under Vitest 4 with `--reporter=html`,
// serves the report on 127.0.0.1, opens it in headless Chromium, goes to the failing test as a
// reader would (a click in the explorer) and checks that its report shows the conversation the
// lane saw — one annotation per turn, and the whole under Test Meta — and that the passing
// test's report shows none.
//
// Usage: node scripts/check-html-report.mjs [screenshot.png]   (npm run check:html-report)
// With a path, the failing test's report page is also saved there as a screenshot.
// Chromium comes from CHROMIUM_PATH, else /usr/bin/chromium; nothing is downloaded. Without it the
// check prints why it did not run and exits 0. Exit 1 means the check ran and failed.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const say = (text) => console.log(`check-html-report: ${text}`)

const spec = `
import Anthropic from '@anthropic-ai/sdk'
import { expect } from 'vitest'
import { test } from ${JSON.stringify(join(repoRoot, 'fixtures/vitest.ts'))}

const ask = async (url, city) => {
  const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 })
  const reply = await client.messages.create({ model: 'claude-test-model', max_tokens: 100, system: 'You plan trips.', messages: [{ role: 'user', content: 'Plan a day in ' + city }] })
  return reply.content[0].text
}

test('plans a day in Lisbon', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM(['Morning: Alfama. Afternoon: Belem.', 'Morning: the palace.']))
  const plans = [await ask(fakeProxy.url, 'Lisbon'), await ask(fakeProxy.url, 'Sintra')]
  expect(plans.join(' ')).toContain('Pena')
})

test('plans a day in Porto', async ({ fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM(['Morning: Ribeira.']))
  expect(await ask(fakeProxy.url, 'Porto')).toContain('Ribeira')
})
`

/** The whole conversation, shown with its line breaks under Test Meta. */
const expectedConversation = [
  '#1 POST /v1/messages · anthropic-messages · model "claude-test-model"',
  '  system: You plan trips.',
  '  user: Plan a day in Lisbon',
  '  reply: Morning: Alfama. Afternoon: Belem.',
  '#2 POST /v1/messages · anthropic-messages · model "claude-test-model"',
  '  user: Plan a day in Sintra',
  '  reply: Morning: the palace.',
].join('\n')

/** What the failing test's annotations must show, one per turn (the UI joins a turn's lines with spaces). */
const expectedTurns = [
  '#1 POST /v1/messages · anthropic-messages · model "claude-test-model" system: You plan trips. user: Plan a day in Lisbon reply: Morning: Alfama. Afternoon: Belem.',
  '#2 POST /v1/messages · anthropic-messages · model "claude-test-model" user: Plan a day in Sintra reply: Morning: the palace.',
]

const contentTypes = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.gz': 'application/gzip' }

if (!existsSync(chromiumPath)) {
  say(`not run: no Chromium at ${chromiumPath} (install Debian's chromium or set CHROMIUM_PATH; nothing is downloaded)`)
  process.exit(0)
}

mkdirSync(join(repoRoot, '.tmp'), { recursive: true })
const dir = mkdtempSync(join(repoRoot, '.tmp', 'html-report-'))
let failure
try {
  const reportDir = writeReport(dir)
  failure = await checkInBrowser(reportDir)
} catch (error) {
  failure = error instanceof Error ? error.stack : String(error)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
if (failure) {
  say(`FAILED\n${failure}`)
  process.exit(1)
}
say('ok: the failing test’s report in the HTML reporter shows the conversation fakeProxy saw; the passing test’s shows none')

/** Runs the generated file under Vitest 4 with the HTML reporter; returns the report's folder. */
function writeReport(dir) {
  writeFileSync(join(dir, 'trip.spec.ts'), spec)
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.spec.ts'] } }\n`)
  const reportDir = join(dir, 'html')
  const run = spawnSync(
    process.execPath,
    [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs'), '--reporter=html', `--outputFile.html=${join(reportDir, 'index.html')}`],
    { cwd: repoRoot, encoding: 'utf8', timeout: 120_000, env: childEnv() },
  )
  // One test fails by design: exit code 1, and a report.
  if (run.status !== 1 || !existsSync(join(reportDir, 'html.meta.json.gz'))) {
    throw new Error(`the child Vitest run exited ${run.status ?? run.signal} without the expected report:\n${run.stdout}\n${run.stderr}`)
  }
  return reportDir
}

/** This environment without what would make the child believe it runs inside a Vitest worker. */
function childEnv() {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST|TINYPOOL|OPENAI_|ANTHROPIC_)/.test(name) && name !== 'NODE_OPTIONS'))
  return { ...env, NO_COLOR: '1' }
}

/** Serves the report, opens it in Chromium and checks both tests' pages; returns a failure or undefined. */
async function checkInBrowser(reportDir) {
  const { chromium } = await import('playwright')
  const server = await serve(reportDir)
  const browser = await chromium.launch({ executablePath: chromiumPath })
  try {
    const page = await browser.newPage()
    // The report links Google Fonts; there is no network to wait for.
    await page.route((url) => url.hostname !== '127.0.0.1', (route) => route.abort())
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`)

    await page.getByText('plans a day in Lisbon', { exact: true }).click()
    const notes = page.getByRole('note').filter({ hasText: 'agent-doubles: conversation' })
    const appeared = await notes.first().waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false)
    if (!appeared) return `no "agent-doubles: conversation" annotation on the failing test's report; the page shows:\n${await page.locator('body').innerText()}`
    const shown = (await notes.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim())
    const expected = expectedTurns.map((turn) => `agent-doubles: conversation ${turn}`)
    if (process.argv[2]) await page.screenshot({ path: resolve(process.argv[2]), fullPage: true })
    if (JSON.stringify(shown) !== JSON.stringify(expected)) return `the failing test's report shows the annotations\n  ${shown.join('\n  ')}\ninstead of\n  ${expected.join('\n  ')}`
    const meta = page.locator('pre').filter({ hasText: '#1 POST /v1/messages' })
    const metaShown = (await meta.count()) === 1 && (await meta.isVisible()) ? await meta.innerText() : undefined
    if (metaShown !== expectedConversation) return `the failing test's Test Meta shows\n${metaShown ?? '(no agentDoublesConversation)'}\ninstead of\n${expectedConversation}`

    await page.getByText('plans a day in Porto', { exact: true }).click()
    await page.getByText('The test has passed without any errors').waitFor({ state: 'visible', timeout: 15_000 })
    const shownOnPassing = await page.getByRole('note').count()
    if (shownOnPassing) return `the passing test's report shows ${shownOnPassing} annotation(s)`
    return undefined
  } finally {
    await browser.close()
    server.closeAllConnections()
    await new Promise((done) => server.close(done))
  }
}

/** A static file server for the report folder, listening on 127.0.0.1. */
async function serve(root) {
  const server = createServer(async (request, response) => {
    const path = resolve(root, `.${decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname)}`)
    const file = path === root || path.endsWith(sep) ? join(path, 'index.html') : path
    if (!file.startsWith(root + sep)) return response.writeHead(403).end()
    try {
      const body = await readFile(file)
      response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' }).end(body)
    } catch {
      response.writeHead(404).end()
    }
  })
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening))
  return server
}
