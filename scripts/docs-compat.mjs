#!/usr/bin/env node
// The compatibility page (docs/compatibility.md), generated from the suite itself: for each
// client, framework and runtime, the version installed for the tests (and the Node 24 leg's, where
// it has one), the test files that drive it (every file under test/ and examples/ that imports
// it), the dialects those files drive it over (the dialect names they assert on) and the
// transports they use, and a status. test/docs/compatibility.test.ts keeps the page equal to
// what this prints.
//
// Usage: node scripts/docs-compat.mjs          (npm run docs:compat) writes the page
//        node scripts/docs-compat.mjs --check  exits 1 when the page is out of date
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
export const pagePath = join(root, 'docs/compatibility.md')

/**
 * What the page lists. `packages`: the first is the one whose version is shown and whose importers
 * are the tests; the others are shown beside it. `guide`: its page in the docs, when it has one.
 */
const entries = [
  { group: 'Clients', name: 'OpenAI SDK', dialects: ['openai-chat', 'openai-responses', 'openai-embeddings', 'openai-models', 'azure-chat', 'azure-responses'], packages: ['openai'], guide: '/guide/openai' },
  { group: 'Clients', name: 'Anthropic SDK', dialects: ['anthropic-messages', 'openai-models'], packages: ['@anthropic-ai/sdk'], guide: '/guide/anthropic' },
  { group: 'Clients', name: 'Anthropic Vertex SDK', dialects: ['vertex-anthropic', 'anthropic-messages'], packages: ['@anthropic-ai/vertex-sdk'] },
  { group: 'Clients', name: 'Google Gen AI SDK', dialects: ['gemini-generate', 'gemini-count-tokens', 'gemini-embed', 'gemini-models', 'gemini-live'], packages: ['@google/genai'], guide: '/guide/providers' },
  { group: 'Clients', name: 'AWS SDK Bedrock Runtime', dialects: ['bedrock-converse', 'bedrock-invoke', 'bedrock-embed'], packages: ['@aws-sdk/client-bedrock-runtime'], guide: '/guide/providers' },
  { group: 'Clients', name: 'Ollama', dialects: ['ollama-chat', 'ollama-generate', 'ollama-embed', 'ollama-tags'], packages: ['ollama'], guide: '/guide/providers' },
  { group: 'Clients', name: 'MCP SDK', dialects: [], transports: ['stdio'], packages: ['@modelcontextprotocol/sdk'], guide: '/guide/mcp' },
  { group: 'AI SDK', name: 'AI SDK core', packages: ['ai'], guide: '/guide/ai-sdk' },
  { group: 'AI SDK', name: 'OpenAI provider', dialects: ['openai-chat', 'openai-responses', 'openai-embeddings'], packages: ['@ai-sdk/openai'], guide: '/guide/ai-sdk' },
  { group: 'AI SDK', name: 'Anthropic provider', dialects: ['anthropic-messages'], packages: ['@ai-sdk/anthropic'], guide: '/guide/ai-sdk' },
  { group: 'AI SDK', name: 'Google provider', dialects: ['gemini-generate', 'gemini-embed'], packages: ['@ai-sdk/google'], guide: '/guide/providers' },
  { group: 'AI SDK', name: 'Google Vertex provider', dialects: ['vertex-generate', 'gemini-generate'], packages: ['@ai-sdk/google-vertex'] },
  { group: 'AI SDK', name: 'Azure provider', dialects: ['openai-chat', 'openai-responses', 'openai-embeddings', 'azure-chat', 'azure-responses'], packages: ['@ai-sdk/azure'], guide: '/guide/providers' },
  { group: 'AI SDK', name: 'Amazon Bedrock provider', dialects: ['bedrock-converse', 'bedrock-embed'], packages: ['@ai-sdk/amazon-bedrock'], guide: '/guide/providers' },
  { group: 'AI SDK', name: 'Ollama provider', dialects: ['ollama-chat', 'ollama-embed'], packages: ['ollama-ai-provider-v2'], guide: '/guide/providers' },
  { group: 'AI SDK', name: 'MCP client', dialects: [], packages: ['@ai-sdk/mcp'], guide: '/guide/mcp' },
  { group: 'Frameworks', name: 'OpenAI Agents SDK', dialects: ['openai-responses', 'openai-chat'], packages: ['@openai/agents'], guide: '/guide/openai-agents' },
  { group: 'Frameworks', name: 'OpenAI Agents Realtime', dialects: ['openai-realtime'], packages: ['@openai/agents-realtime'], guide: '/guide/voice-agents' },
  { group: 'Frameworks', name: 'LangChain (OpenAI)', dialects: ['openai-chat', 'openai-responses'], packages: ['@langchain/openai', '@langchain/core'], guide: '/guide/langchain' },
  { group: 'Frameworks', name: 'LangChain (Anthropic)', dialects: ['anthropic-messages'], packages: ['@langchain/anthropic', '@langchain/core'], guide: '/guide/langchain' },
  { group: 'Frameworks', name: 'LangChain (Google)', dialects: ['gemini-generate'], packages: ['@langchain/google-genai', '@langchain/core'] },
  { group: 'Frameworks', name: 'LangGraph.js', dialects: ['openai-chat', 'anthropic-messages'], packages: ['@langchain/langgraph'], guide: '/guide/langgraph' },
  { group: 'Frameworks', name: 'LlamaIndex.TS', dialects: ['openai-chat', 'openai-embeddings'], packages: ['@llamaindex/openai', 'llamaindex'], guide: '/guide/llamaindex' },
  { group: 'Frameworks', name: 'Genkit', dialects: ['openai-chat'], packages: ['@genkit-ai/compat-oai', 'genkit'], guide: '/guide/genkit' },
  { group: 'Frameworks', name: 'Mastra', dialects: ['openai-chat', 'openai-responses', 'anthropic-messages'], packages: ['@mastra/core'], guide: '/guide/mastra' },
  { group: 'Agent runtimes', name: 'Claude Agent SDK', dialects: ['anthropic-messages', 'anthropic-count-tokens', 'openai-models'], transports: ['child process'], packages: ['@anthropic-ai/claude-agent-sdk'], guide: '/guide/claude-agent-sdk' },
  { group: 'Agent runtimes', name: 'Codex SDK', dialects: ['openai-responses', 'openai-models'], transports: ['child process'], packages: ['@openai/codex-sdk'], guide: '/guide/codex' },
  { group: 'Agent runtimes', name: 'Gemini CLI', dialects: ['gemini-generate', 'gemini-count-tokens', 'gemini-models'], transports: ['child process'], packages: ['@google/gemini-cli'], guide: '/guide/gemini-cli' },
  { group: 'Test runners and browsers', name: 'Vitest', dialects: [], packages: ['vitest'], guide: '/guide/getting-started-vitest' },
  { group: 'Test runners and browsers', name: 'Jest', dialects: [], packages: ['@jest/globals', 'jest'], guide: '/guide/getting-started-jest' },
  { group: 'Test runners and browsers', name: 'Playwright', dialects: [], via: ['playwright', 'playwright-core'], packages: ['@playwright/test'], guide: '/guide/playwright' },
]

const begin = '<!-- compatibility:begin (generated by npm run docs:compat) -->'
const end = '<!-- compatibility:end -->'

/** Every .ts/.mts/.js/.mjs/.cjs file under a folder, node_modules and generated folders aside. */
function sourceFiles(dir) {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(c|m)?[jt]s$/.test(entry.name) ? [path] : []
  })
}

function installedVersion(pkg, base = root) {
  const file = join(base, 'node_modules', pkg, 'package.json')
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined
}

/**
 * The dialect names of the `Dialect` type: the `dialectNames` each provider of the list
 * (src/wire/providers.ts, one line a provider) declares in its folder.
 */
function dialectNames() {
  const list = readFileSync(join(root, 'src/wire/providers.ts'), 'utf8')
  return [...list.matchAll(/^export \{ \w+ as \w+ \} from '\.\/([^']+)\.js'$/gm)].flatMap((line) => {
    const declaration = readFileSync(join(root, 'src/wire', `${line[1]}.ts`), 'utf8')
    return [...(/dialectNames: \[([^\]]*)\]/.exec(declaration)?.[1] ?? '').matchAll(/'([a-z0-9-]+)'/g)].map((m) => m[1])
  })
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const importsPackage = (text, pkg) => new RegExp(`(from\\s+|import\\s*\\(\\s*|require\\(\\s*)['"]${escape(pkg)}(/[^'"]*)?['"]`).test(text)

/** What the tests drive an entry over, read from the files that import it. */
function transportsOf(texts, extra = []) {
  const found = new Set(['HTTP'])
  const any = (pattern) => texts.some((text) => pattern.test(text))
  if (any(/stream/i)) found.add('streamed')
  if (any(/WebSocket|wss?:\/\/|live\.connect|RealtimeSession/)) found.add('WebSocket')
  if (any(/fetch:\s*(\w+\.)?fetch\b|proxy\.fetch/)) found.add('in process (proxy.fetch)')
  // Only where the entry can use them: most big test files also start a CLI or an MCP server.
  if (extra.includes('stdio') && any(/StdioClientTransport/)) found.add('stdio')
  if (extra.includes('child process') && any(/spawn\(|execFile\(|fork\(/)) found.add('child process')
  return [...found]
}

/**
 * Up to five folders, examples first. No counts: a new test file elsewhere in the suite must not
 * make the page out of date.
 */
function shortList(folders) {
  if (!folders.length) return '—'
  const shown = folders.slice(0, 5).map((folder) => `\`${folder}\``).join(' ')
  return folders.length > 5 ? `${shown} …` : shown
}

/** The page's generated part. */
export function renderCompatibility() {
  const files = [...sourceFiles(join(root, 'test')), ...sourceFiles(join(root, 'examples'))]
    .filter((file) => !file.includes(`${join('test', 'matrix')}`) || file.endsWith('.test.ts'))
    .map((file) => ({ path: relative(root, file).split('\\').join('/'), text: readFileSync(file, 'utf8') }))
  const dialects = dialectNames()
  const node24Base = join(root, 'test/matrix/node24')
  const node24Declared = existsSync(join(node24Base, 'package.json')) ? JSON.parse(readFileSync(join(node24Base, 'package.json'), 'utf8')).devDependencies ?? {} : {}
  const node24Lock = existsSync(join(node24Base, 'package-lock.json')) ? JSON.parse(readFileSync(join(node24Base, 'package-lock.json'), 'utf8')).packages ?? {} : {}

  const lines = [begin, '']
  let group
  for (const entry of entries) {
    if (entry.group !== group) {
      group = entry.group
      lines.push(`## ${group}`, '', '| | package (version tested) | Node 24 leg | tested in | dialects | transports | status |', '|---|---|---|---|---|---|---|')
    }
    const [main] = entry.packages
    const versions = entry.packages.map((pkg) => `\`${pkg}\` ${installedVersion(pkg) ?? '(not installed)'}`).join('<br>')
    const node24 = node24Declared[main] ? `${node24Lock[`node_modules/${main}`]?.version ?? node24Declared[main]}` : '—'
    const importers = files.filter((file) => [main, ...(entry.via ?? [])].some((pkg) => importsPackage(file.text, pkg)))
    // An example's program imports the client; the test beside it is what drives it.
    const besides = importers.filter((file) => file.path.startsWith('examples/')).map((file) => file.path.replace(/[^/]+$/, ''))
    const users = files.filter((file) => importers.includes(file) || (file.path.endsWith('.test.ts') && besides.some((dir) => file.path.replace(/[^/]+$/, '') === dir)))
    const folders = [...new Set(users.map((file) => file.path.split('/').slice(0, 2).join('/')))].sort()
    const usedDialects = (entry.dialects ?? dialects).filter((name) => dialects.includes(name) && users.some((file) => file.text.includes(`'${name}'`)))
    const tested = installedVersion(main) !== undefined && users.length > 0
    const name = entry.guide && existsSync(join(root, 'docs', `${entry.guide}.md`)) ? `[${entry.name}](${entry.guide})` : entry.name
    const status = tested ? '✅ tested' : installedVersion(main) ? '⚠️ installed, no test' : '❌ not tested'
    lines.push(
      `| ${name} | ${versions} | ${node24} | ${shortList(folders)} | ${usedDialects.map((d) => `\`${d}\``).join(' ') || '—'} | ${tested ? transportsOf(users.map((file) => file.text), entry.transports).join(', ') : '—'} | ${status} |`,
    )
    const next = entries[entries.indexOf(entry) + 1]
    if (!next || next.group !== group) lines.push('')
  }
  lines.push(end)
  return lines.join('\n')
}

/** The page with its generated part replaced; the text around the markers is kept. */
export function updatedPage(page = readFileSync(pagePath, 'utf8')) {
  const from = page.indexOf(begin)
  const to = page.indexOf(end)
  if (from < 0 || to < from) throw new Error(`docs/compatibility.md has no ${begin} … ${end} markers`)
  return page.slice(0, from) + renderCompatibility() + page.slice(to + end.length)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = readFileSync(pagePath, 'utf8')
  const next = updatedPage(page)
  if (process.argv.includes('--check')) {
    if (next !== page) {
      console.error('docs/compatibility.md is out of date: run npm run docs:compat')
      process.exit(1)
    }
  } else if (next !== page) {
    writeFileSync(pagePath, next)
    console.log('docs/compatibility.md updated')
  } else console.log('docs/compatibility.md is current')
}
