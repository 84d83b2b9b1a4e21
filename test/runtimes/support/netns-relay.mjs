// Runs inside a fresh network namespace that holds only loopback (see netns-exec.sh): listens on
// 127.0.0.1:<port> there for each port of AGENT_DOUBLES_NETNS_MAP (`port=socket;…`), relays every
// connection to the test's server on that port (its FakeProxy, a FakeMcpServer) through a Unix
// socket (a path on the file system, which every namespace reaches), then runs the runtime and
// exits with its status. The runtime sees the servers' own URLs, and nothing else.
import { spawn } from 'node:child_process'
import { connect, createServer } from 'node:net'
import { splice } from './splice.mjs'

const map = (process.env.AGENT_DOUBLES_NETNS_MAP ?? '').split(';').filter(Boolean).map((entry) => {
  const at = entry.indexOf('=')
  return { port: Number(entry.slice(0, at)), path: entry.slice(at + 1) }
})
const [command, ...args] = process.argv.slice(2)
if (map.some(({ port }) => !Number.isInteger(port)) || !command) {
  console.error('netns-relay: AGENT_DOUBLES_NETNS_MAP (port=socket;…) and a command are needed')
  process.exit(2)
}

const sockets = new Set()
const relays = map.map(({ path }) => createServer({ noDelay: true }, (inner) => splice(inner, connect(path), sockets)))
const stop = () => {
  for (const relay of relays) relay.close()
  for (const socket of sockets) socket.destroy()
}
let listening = 0
// The runtime starts once every port listens (at once when there is none: a `--version`).
const start = () => {
  const child = spawn(command, args, { stdio: 'inherit', env: process.env })
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('error', (error) => {
    console.error(`netns-relay: cannot run ${command}: ${error.message}`)
    process.exitCode = 127
    stop()
  })
  child.on('exit', (code, signal) => {
    stop()
    if (signal) process.kill(process.pid, signal)
    else process.exitCode = code ?? 1
  })
}
if (relays.length === 0) start()
relays.forEach((relay, n) => relay.listen(map[n].port, '127.0.0.1', () => {
  if (++listening === relays.length) start()
}))
