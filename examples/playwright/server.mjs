// A tiny chat app: a page (public/index.html) and POST /api/chat, which asks a model through the
// official `openai` client. The client is built with no options: OPENAI_BASE_URL and
// OPENAI_API_KEY decide where it goes — in the tests, the fake proxy.
//
//   OPENAI_BASE_URL=http://127.0.0.1:4010/v1 OPENAI_API_KEY=test node server.mjs
//
// Prints its URL on the first line of output (PORT picks the port; default: a free one), and
// stops on SIGINT/SIGTERM.
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import OpenAI from 'openai'

const page = await readFile(new URL('./public/index.html', import.meta.url))
// One attempt: the page shows a provider error at once rather than after the client's retries.
const openai = new OpenAI({ maxRetries: 0 })

/** The whole request body as JSON. */
async function json(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

async function chat(req, res) {
  const { messages } = await json(req)
  try {
    const completion = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'system', content: 'You are the assistant of a small travel agency.' }, ...messages],
    })
    send(res, 200, { reply: completion.choices[0].message.content })
  } catch (error) {
    // What the user sees when the model is unavailable; the status is the provider's.
    send(res, 502, { error: error instanceof OpenAI.APIError ? `The assistant is unavailable (${error.status}). Try again.` : 'The assistant failed.' })
  }
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    return res.end(page)
  }
  if (req.method === 'POST' && req.url === '/api/chat') return void chat(req, res)
  send(res, 404, { error: 'not found' })
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`http://127.0.0.1:${server.address().port}`)
})
const stop = () => server.close()
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
