/**
 * The servers the wire benchmarks compare, all on 127.0.0.1: FakeProxy with a ScriptedLLM,
 * aimock's LLMock with the same replies (streamed in the same number of chunks), and the floor —
 * a bare node:http server replaying, byte for byte, the bodies FakeProxy sent for each request.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { LLMock } from '@copilotkit/aimock'
import { FakeProxy, scriptedLLM } from 'agent-doubles'

/** 48 words of 4 characters: 48 text deltas, so a streamed answer is 50 events with its head and end. */
export const longReply = Array.from({ length: 48 }, (_, i) => `w${String(i).padStart(2, '0')}`).join(' ')

export const bodies = {
  chat: { model: 'gpt-5', messages: [{ role: 'user' as const, content: 'hello' }] },
  chatStream: { model: 'gpt-5', stream: true as const, messages: [{ role: 'user' as const, content: 'stream please' }] },
  messagesStream: { model: 'claude-x', max_tokens: 256, stream: true as const, messages: [{ role: 'user' as const, content: 'stream please' }] },
}

/** The script every double answers from. */
export const replies = { hello: 'hi there', stream: longReply }

export interface Servers {
  bare: string
  proxy: FakeProxy
  aimock: LLMock
  close(): Promise<void>
}

/** What the floor replays: a FakeProxy answer's headers and bytes. */
export interface Answer {
  headers: Record<string, string>
  body: Buffer
}

/** POSTs `body` to `url` and keeps the answer for the floor to replay. */
export async function captureAnswer(url: string, body: unknown): Promise<Answer> {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const headers: Record<string, string> = {}
  for (const [name, value] of answer.headers) {
    // content-length stays where FakeProxy sent one (JSON); its streams are chunked, as the floor's are.
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value
  }
  return { headers, body: Buffer.from(await answer.arrayBuffer()) }
}

/** Starts the three servers, the floor serving the bytes FakeProxy answered. */
export async function startServers(): Promise<Servers> {
  const proxy = await new FakeProxy({ llm: scriptedLLM(replies) }).start()
  const aimock = new LLMock({ port: 0 })
  aimock.onMessage('hello', { content: 'hi there' })
  aimock.onMessage('stream', { content: longReply }, { chunkSize: 4 })
  await aimock.start()

  const captured = new Map<string, Answer>()
  const samples = [
    ['/v1/chat/completions', bodies.chat],
    ['/v1/chat/completions', bodies.chatStream],
    ['/v1/messages', bodies.messagesStream],
  ] as const
  for (const [path, body] of samples) captured.set(`${path} ${'stream' in body}`, await captureAnswer(`${proxy.url}${path}`, body))
  proxy.reset()

  const bare: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const streamed = Buffer.concat(chunks).includes('"stream":true')
      const answer = captured.get(`${req.url} ${streamed}`)!
      res.writeHead(200, answer.headers).end(answer.body)
    })
  })
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))
  return {
    bare: `http://127.0.0.1:${(bare.address() as AddressInfo).port}`,
    proxy,
    aimock,
    async close() {
      bare.closeAllConnections()
      await new Promise((resolve) => bare.close(resolve))
      await proxy.close()
      await aimock.stop()
    },
  }
}
