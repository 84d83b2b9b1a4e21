#!/usr/bin/env node
// The documentation site, checked in a real browser: serves the built site (.docs-dist, written by
// `npm run docs:build`) on 127.0.0.1, opens every page in headless Chromium and fails on
//   - a console error or an uncaught exception on any page,
//   - an internal link (href or #anchor) whose page or heading does not exist,
//   - a matcher whose name the local search does not find (its page must be among the results).
//
// Usage: node scripts/check-docs-site.mjs   (npm run docs:check; test:all runs it after docs:build)
// Chromium comes from CHROMIUM_PATH, else /usr/bin/chromium; nothing is downloaded. Without it the
// check prints why it did not run and exits 0 (as scripts/check-html-report.mjs does). Exit 1 means
// the check ran and failed.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { extname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const site = join(repoRoot, '.docs-dist')
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium'
const say = (text) => console.log(`check-docs-site: ${text}`)
const contentTypes = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json', '.woff2': 'font/woff2' }

if (!existsSync(chromiumPath)) {
  say(`not run: no Chromium at ${chromiumPath} (install Debian's chromium or set CHROMIUM_PATH; nothing is downloaded)`)
  process.exit(0)
}
if (!existsSync(join(site, 'index.html'))) {
  say('FAILED: no built site in .docs-dist (run npm run docs:build first)')
  process.exit(1)
}

/** Every page of the built site, as its URL path. */
function pagePaths(dir = site) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'assets' ? [] : pagePaths(path)
    return entry.name.endsWith('.html') && entry.name !== '404.html' ? [`/${relative(site, path).split(sep).join('/')}`] : []
  })
}

/** The file a URL path names, as the static server resolves it. */
function fileOf(pathname) {
  const path = resolve(site, `.${decodeURIComponent(pathname)}`)
  if (path === site || pathname.endsWith('/')) return join(path, 'index.html')
  if (existsSync(path)) return path
  return existsSync(`${path}.html`) ? `${path}.html` : path
}

const idsByFile = new Map()
/** The element ids a built page holds (headings' anchors among them). */
function idsOf(file) {
  if (!idsByFile.has(file)) idsByFile.set(file, new Set([...readFileSync(file, 'utf8').matchAll(/\sid="([^"]+)"/g)].map((match) => match[1])))
  return idsByFile.get(file)
}

/** The matchers, from the pages generated for them. */
const matcherNames = readdirSync(join(repoRoot, 'docs/matchers'))
  .filter((name) => /^to[A-Z]\w*\.md$/.test(name))
  .map((name) => name.replace(/\.md$/, ''))

const server = createServer(async (request, response) => {
  const file = fileOf(new URL(request.url ?? '/', 'http://127.0.0.1').pathname)
  if (!file.startsWith(site + sep)) return response.writeHead(403).end()
  try {
    const body = await readFile(file)
    response.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' }).end(body)
  } catch {
    response.writeHead(404).end()
  }
})
await new Promise((listening) => server.listen(0, '127.0.0.1', listening))
const origin = `http://127.0.0.1:${server.address().port}`

const problems = []
const pages = pagePaths()
let links = 0
const { chromium } = await import('playwright')
const browser = await chromium.launch({ executablePath: chromiumPath })
try {
  const context = await browser.newContext()
  // Nothing outside the site is fetched: there is no network to wait for.
  await context.route((url) => url.origin !== origin, (route) => route.abort())
  const page = await context.newPage()
  let current = ''
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${current}: console error: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`${current}: uncaught ${error.message}`))

  for (const path of pages) {
    current = path
    const response = await page.goto(origin + path, { waitUntil: 'load' })
    if (!response || response.status() !== 200) {
      problems.push(`${path}: answered ${response?.status()}`)
      continue
    }
    const hrefs = await page.$$eval('a[href]', (anchors) => anchors.map((anchor) => anchor.href))
    for (const href of new Set(hrefs)) {
      const url = new URL(href)
      if (url.origin !== origin) continue
      links++
      const file = fileOf(url.pathname)
      if (!existsSync(file)) {
        problems.push(`${path}: broken link ${url.pathname}${url.hash}`)
        continue
      }
      const anchor = decodeURIComponent(url.hash.slice(1))
      if (anchor && file.endsWith('.html') && !idsOf(file).has(anchor)) problems.push(`${path}: link to a missing heading ${url.pathname}${url.hash}`)
    }
  }

  // The local search: typed into the search box as a reader would, each matcher's page must come up.
  current = '/ (search)'
  await page.goto(`${origin}/index.html`, { waitUntil: 'load' })
  for (const name of matcherNames) {
    await page.locator('.VPNavBarSearch button').first().click()
    const input = page.locator('.VPLocalSearchBox input')
    await input.fill(name)
    const found = await page
      .locator(`.VPLocalSearchBox .results a[href*="/matchers/${name}"]`)
      .first()
      .waitFor({ state: 'attached', timeout: 10_000 })
      .then(() => true, () => false)
    if (!found) {
      const shown = await page.locator('.VPLocalSearchBox .results').innerText().catch(() => '(no results list)')
      problems.push(`search for "${name}" does not find /matchers/${name}: it shows ${JSON.stringify(shown.slice(0, 300))}`)
    }
    await page.keyboard.press('Escape')
  }
} finally {
  await browser.close()
  server.closeAllConnections()
  await new Promise((done) => server.close(done))
}

if (problems.length) {
  say(`FAILED (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
say(`ok: ${pages.length} pages load without a console error, ${links} internal links resolve, the search finds all ${matcherNames.length} matchers`)
