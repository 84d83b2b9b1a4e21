import { existsSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { defineConfig, type DefaultTheme } from 'vitepress'

const docs = fileURLToPath(new URL('..', import.meta.url))

/**
 * A sidebar entry for a page that exists. Pages other work streams write (runtimes, chaos,
 * prompt caching, provider errors…) are listed here before they land: an entry whose file is
 * missing is left out, so the sidebar never links to a page that is not served.
 */
function page(text: string, link: string): DefaultTheme.SidebarItem[] {
  const file = link.endsWith('/') ? `${link}index.md` : `${link}.md`
  return existsSync(`${docs}${file.replace(/^\//, '')}`) ? [{ text, link }] : []
}

function pages(...entries: [text: string, link: string][]): DefaultTheme.SidebarItem[] {
  return entries.flatMap(([text, link]) => page(text, link))
}

/** One entry per matcher page, in the order of their file names. */
function matcherPages(): DefaultTheme.SidebarItem[] {
  return readdirSync(`${docs}matchers`)
    .filter((name) => /^to[A-Z]\w*\.md$/.test(name))
    .sort()
    .map((name) => ({ text: name.replace(/\.md$/, ''), link: `/matchers/${name.replace(/\.md$/, '')}` }))
}

const sidebar: DefaultTheme.Sidebar = [
  {
    text: 'Introduction',
    items: pages(
      ['What is agent-doubles', '/guide/introduction'],
      ['Getting started: Vitest', '/guide/getting-started-vitest'],
      ['Getting started: Jest', '/guide/getting-started-jest'],
      ['Entry points', '/reference/entry-points'],
      ['Public names', '/reference/public-names'],
      ['Architecture', '/guide/architecture'],
    ),
  },
  {
    text: 'The doubles',
    items: pages(
      ['MockAgent', '/doubles/mock-agent'],
      ['ScriptedLLM', '/doubles/scripted-llm'],
      ['FakeProxy', '/doubles/fake-proxy'],
      ['Checks, validation, refusals', '/doubles/checks-and-refusals'],
      ['Replies, faults, provider errors', '/doubles/faults-and-provider-errors'],
      ['Local agent API', '/doubles/local-agent-api'],
      ['FakeMcpServer', '/doubles/fake-mcp-server'],
    ),
  },
  {
    text: 'Clients and frameworks',
    items: pages(
      ['openai', '/guide/openai'],
      ['Anthropic', '/guide/anthropic'],
      ['AI SDK', '/guide/ai-sdk'],
      ['@openai/agents', '/guide/openai-agents'],
      ['LangChain', '/guide/langchain'],
      ['LangGraph', '/guide/langgraph'],
      ['Mastra', '/guide/mastra'],
      ['LlamaIndex', '/guide/llamaindex'],
      ['Genkit', '/guide/genkit'],
      ['MCP', '/guide/mcp'],
      ['Gemini, Azure, Ollama, Bedrock', '/guide/providers'],
    ),
  },
  {
    text: 'Agent runtimes',
    items: pages(
      ['Claude Agent SDK', '/guide/claude-agent-sdk'],
      ['Codex', '/guide/codex'],
      ['Gemini CLI', '/guide/gemini-cli'],
      ['Voice agents', '/guide/voice-agents'],
      ['Playwright', '/guide/playwright'],
    ),
  },
  {
    text: 'Writing tests',
    items: pages(
      ['Fixtures and setup', '/guide/fixtures'],
      ['Rules', '/guide/rules'],
      ['Snapshots', '/guide/snapshots'],
      ['Failure context', '/guide/failure-context'],
      ['Network guard', '/guide/network-guard'],
      ['TypeScript', '/guide/typescript'],
      ['Teardown and open handles', '/guide/teardown'],
    ),
  },
  {
    text: 'Recipes',
    items: pages(
      ['Concurrency and lanes', '/recipes/concurrency'],
      ['Record and replay', '/recipes/record-replay'],
      ['CI sharding', '/recipes/ci-sharding'],
      ['Chaos', '/recipes/chaos'],
      ['Prompt caching and budgets', '/recipes/prompt-caching'],
    ),
  },
  {
    text: 'Matchers',
    collapsed: false,
    items: [...page('Overview', '/matchers/'), ...matcherPages()],
  },
  {
    text: 'Reference',
    items: pages(
      ['API', '/api/'],
      ['CLI and control API', '/reference/cli'],
      ['Compatibility', '/compatibility'],
      ['Network guard errors', '/reference/network-guard'],
      ['Provider errors', '/reference/provider-errors'],
      ['Models', '/reference/models'],
      ['Limits', '/reference/limits'],
      ['Runtime requirements', '/reference/runtime-requirements'],
      ['Benchmarks', '/reference/benchmarks'],
      ['Known limits', '/reference/known-limits'],
      ['Development', '/reference/development'],
    ),
  },
]

export default defineConfig({
  title: 'agent-doubles',
  description: 'Test doubles for LLM agents — MockAgent, FakeProxy, ScriptedLLM — as a Vitest and Jest plugin.',
  // Built into a folder git ignores; `npm run docs:build` writes it.
  outDir: '../.docs-dist',
  cacheDir: '../.tmp/vitepress-cache',
  cleanUrls: false,
  lastUpdated: false,
  // A link to a page that does not exist fails the build.
  ignoreDeadLinks: false,
  srcExclude: ['**/_*.md'],
  // The search index and the generated API pages make large chunks; they load once, locally.
  vite: { build: { chunkSizeWarningLimit: 4096 } },
  markdown: { theme: { light: 'github-light', dark: 'github-dark' } },
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started-vitest' },
      { text: 'Matchers', link: '/matchers/' },
      { text: 'Recipes', link: '/recipes/concurrency' },
      { text: 'API', link: '/api/' },
      { text: 'Compatibility', link: '/compatibility' },
    ],
    sidebar,
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
})
