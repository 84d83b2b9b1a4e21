// Runs inside a test file's loopback-only network namespace (see netns-exec.sh --host) for as
// long as that file runs. Told `listen <port> <socket>` on stdin, it listens on 127.0.0.1:<port>
// there and relays every connection to the test's server on that port (its FakeProxy, a
// FakeMcpServer) through the Unix socket (a file-system path reaches across namespaces), then
// answers `listening <port>` (or `failed <port> <why>`) on stdout. It says `ready` first, and
// ends when stdin does (the test process closed it, or died). A runtime run in the namespace
// sees the servers' own URLs, and nothing else.
import { createInterface } from 'node:readline'
import { connect, createServer } from 'node:net'
import { splice } from './splice.mjs'

const sockets = new Set()
const relays = []
const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  const [verb, portText, path] = line.split(' ')
  const port = Number(portText)
  if (verb !== 'listen' || !Number.isInteger(port) || !path) return void process.stdout.write(`failed ${portText} bad command: ${line}\n`)
  const relay = createServer({ noDelay: true }, (inner) => splice(inner, connect(path), sockets))
  relays.push(relay)
  relay.once('error', (error) => process.stdout.write(`failed ${port} ${error.message}\n`))
  relay.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${port}\n`))
})
lines.on('close', () => {
  for (const relay of relays) relay.close()
  for (const socket of sockets) socket.destroy()
})
process.stdout.write('ready\n')
