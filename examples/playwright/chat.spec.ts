// End to end: the chat page in headless Chromium, its Node server (a process of its own, using
// the official `openai` client) pointed at the worker's fake proxy, and each test scripting its
// own lane through the `fakeProxy` fixture of agent-doubles/playwright.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { lastUserText } from 'agent-doubles'
import { expect, test as base } from 'agent-doubles/playwright'

/** The app server of this worker: started once, its OpenAI client aimed at the worker's fake. */
const test = base.extend<{}, { appUrl: string }>({
  appUrl: [
    async ({ fakeProxyServer }, use) => {
      const app = spawn(process.execPath, [fileURLToPath(new URL('./server.mjs', import.meta.url))], {
        // The root URL: a request naming no lane reaches the test running now (one per worker).
        env: { ...process.env, OPENAI_BASE_URL: `${fakeProxyServer.url}/v1`, OPENAI_API_KEY: 'test-key' },
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      const [url] = (await once(createInterface({ input: app.stdout! }), 'line')) as [string]
      await use(url)
      app.kill('SIGTERM')
      if (app.exitCode === null) await once(app, 'exit')
    },
    { scope: 'worker' },
  ],
})

/** Types a message and sends it, as a user does. */
async function send(page: import('@playwright/test').Page, text: string) {
  await page.getByLabel('Your message').fill(text)
  await page.getByRole('button', { name: 'Send' }).click()
}

test('the page shows the scripted answer', async ({ page, appUrl, fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM({ 'Lisbon': 'Lisbon in May: warm days, few crowds.' }))
  await page.goto(appUrl)
  await send(page, 'Is Lisbon nice in May?')
  await expect(page.getByTestId('assistant')).toHaveText('Lisbon in May: warm days, few crowds.')
  expect(fakeProxy).toHaveReceivedRequests(1)
  expect(fakeProxy).toHaveReceivedRequest({ path: '/v1/chat/completions', dialect: 'openai-chat', model: 'gpt-4o-mini' })
  expect(fakeProxy).toHaveSentValidRequests()
})

test('a conversation: the second request carries the whole history', async ({ page, appUrl, fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM(['Where would you like to go?', 'Porto it is: book the river cruise.']))
  await page.goto(appUrl)
  await send(page, 'Plan a weekend')
  await expect(page.getByTestId('assistant')).toHaveText('Where would you like to go?')
  await send(page, 'Porto')
  await expect(page.getByTestId('assistant').nth(1)).toHaveText('Porto it is: book the river cruise.')
  expect(fakeProxy).toHaveReceivedRequests(2)
  const second = fakeProxy.requests[1]!.request
  expect(lastUserText(second)).toBe('Porto')
  expect(second.system).toContain('travel agency')
  expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
})

test('a provider error reaches the page as the app words it', async ({ page, appUrl, fakeProxy, scriptedLLM }) => {
  fakeProxy.use(scriptedLLM(['never sent']))
  fakeProxy.providerError('rate_limit')
  await page.goto(appUrl)
  await send(page, 'Anything?')
  await expect(page.getByTestId('error')).toHaveText('The assistant is unavailable (429). Try again.')
  expect(fakeProxy).toHaveReceivedRequests(1)
})
